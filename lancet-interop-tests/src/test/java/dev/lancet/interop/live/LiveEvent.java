package dev.lancet.interop.live;

import java.util.Collections;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * One acknowledged commit of the live test, as its writer saw it: the version it was published
 * as, its transaction uuid, and its effect on rows ({@code upserts}: appended ids or updated
 * values; {@code deletes}: deleted ids).
 *
 * <p>{@code planned} says the writer chose the rows from a version where they were live (Lancet:
 * a Delete or Update planned on a read version); such a commit acknowledged after a concurrent
 * commit deleted one of its rows would have resurrected or re-deleted it, a wrong verdict. A
 * lance-core delete by predicate ({@code id = k}) is evaluated at its commit, so it may match
 * nothing.
 */
record LiveEvent(long version, String uuid, String writer, String operation,
    Map<Long, String> upserts, Set<Long> deletes, boolean planned) {
  LiveEvent {
    upserts = Collections.unmodifiableMap(new TreeMap<>(upserts)); // a value may be null
    deletes = Set.copyOf(deletes);
  }
}
