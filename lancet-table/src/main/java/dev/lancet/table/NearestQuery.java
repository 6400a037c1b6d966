package dev.lancet.table;

import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * What {@link Scan#nearest} asked for: the vector column, the query vectors (several when
 * {@code several}: then each gets its own result rows, told apart by {@code _query_index}), how
 * many nearest rows per query, and the knobs. {@code nprobes}, {@code refineFactor} and
 * {@code useIndex} steer an index search, which Lancet does not do yet (docs/decisions/0028).
 */
record NearestQuery(String column, List<float[]> queries, boolean several, int k,
    Optional<DistanceMetric> metric, boolean prefilter, OptionalInt nprobes,
    OptionalInt refineFactor, boolean useIndex) {
  NearestQuery {
    queries = List.copyOf(queries);
  }

  NearestQuery withMetric(DistanceMetric m) {
    return new NearestQuery(column, queries, several, k, Optional.of(m), prefilter, nprobes,
        refineFactor, useIndex);
  }

  NearestQuery withPrefilter(boolean on) {
    return new NearestQuery(column, queries, several, k, metric, on, nprobes, refineFactor,
        useIndex);
  }

  NearestQuery withNprobes(int n) {
    return new NearestQuery(column, queries, several, k, metric, prefilter, OptionalInt.of(n),
        refineFactor, useIndex);
  }

  NearestQuery withRefineFactor(int f) {
    return new NearestQuery(column, queries, several, k, metric, prefilter, nprobes,
        OptionalInt.of(f), useIndex);
  }

  NearestQuery withUseIndex(boolean on) {
    return new NearestQuery(column, queries, several, k, metric, prefilter, nprobes,
        refineFactor, on);
  }
}
