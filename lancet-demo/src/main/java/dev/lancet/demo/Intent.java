package dev.lancet.demo;

import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * What a writer means to change, independent of how its transaction is spelled. The expected
 * final table is built from the intents of the acknowledged commits alone.
 */
public sealed interface Intent {
  /** Insert these keys unless they exist (a key that exists is left as it is). */
  record Append(List<Long> ids) implements Intent {
    public Append {
      ids = List.copyOf(ids);
    }
  }

  /** Add the {@code score} column, with data for the rows of {@code fragments}. */
  record AddScoreColumn(Set<Long> fragments) implements Intent {
    public AddScoreColumn {
      fragments = Collections.unmodifiableSortedSet(new TreeSet<>(fragments));
    }
  }

  /** Delete these rows of one fragment. */
  record Delete(long fragment, Set<Long> ids) implements Intent {
    public Delete {
      ids = Set.copyOf(ids);
    }
  }

  /** Rewrite the {@code value} column of one fragment to {@link DemoRows#rewrittenValue}. */
  record RewriteValues(long fragment) implements Intent {}
}
