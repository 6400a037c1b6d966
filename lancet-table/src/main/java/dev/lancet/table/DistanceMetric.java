package dev.lancet.table;

/**
 * How a vector search measures the distance between the query {@code q} and a row's vector
 * {@code v}; smaller is nearer. The definitions are Lance's (docs/decisions/0028), so
 * {@code _distance} holds the same numbers lance-core returns:
 *
 * <ul>
 *   <li>{@link #L2}: the <em>squared</em> Euclidean distance, {@code sum((q[i] - v[i])^2)} (no
 *       square root);
 *   <li>{@link #COSINE}: {@code 1 - q·v / (|q| |v|)}, from 0 (same direction) to 2; a row
 *       whose vector is all zeros has no cosine distance and is left out;
 *   <li>{@link #DOT}: {@code 1 - q·v} (may be negative);
 *   <li>{@link #HAMMING}: the number of bits that differ, for vectors of {@code uint8}.
 * </ul>
 *
 * Float vectors take L2, COSINE or DOT (L2 unless said otherwise); uint8 vectors take only
 * HAMMING (their default).
 */
public enum DistanceMetric {
  L2,
  COSINE,
  DOT,
  HAMMING;

  /** The metric named {@code name}, in any case ({@code l2}, {@code cosine}, ...). */
  public static DistanceMetric parse(String name) {
    for (DistanceMetric m : values()) {
      if (m.name().equalsIgnoreCase(name.trim())) {
        return m;
      }
    }
    throw new InvalidInputException("unknown distance metric '" + name + "'; use one of l2, "
        + "cosine, dot, hamming");
  }
}
