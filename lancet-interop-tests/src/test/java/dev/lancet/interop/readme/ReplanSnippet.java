package dev.lancet.interop.readme;

import dev.lancet.core.Table;
import dev.lancet.core.commit.CommitResult;
import dev.lancet.core.commit.ConflictingCommitException;
import dev.lancet.core.transaction.TransactionBuilder;
import java.util.function.Function;

/**
 * README snippet "replan": commits {@code plan(table)}, planning again when a concurrent writer
 * collided with it. The commit loop has already rebased and retried everything that commutes;
 * a ConflictingCommitException means the plan itself must change.
 */
final class ReplanSnippet {
  private ReplanSnippet() {}

  static CommitResult run(Table table, Function<Table, TransactionBuilder> plan) {
    // README:begin
    for (int attempt = 1; ; attempt++) {
      try {
        return plan.apply(table).commit();
      } catch (ConflictingCommitException e) {
        if (attempt == 3) {
          throw e;
        }
        System.err.println("version " + e.version() + " (" + e.winnerOperation() + ") collided: "
            + e.collisions() + "; planning again");
      }
    }
    // README:end
  }
}
