package dev.lancet.format.rowids;

import com.google.protobuf.InvalidProtocolBufferException;
import dev.lancet.format.FormatException;
import dev.lancet.format.pb.RowIdProtos;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * For each physical row of a fragment, the table version that created or last updated it
 * ({@code RowDatasetVersionSequence}, format-facts §5.3): runs of rows sharing one version.
 *
 * <p>Each run's span is a {@link U64Segment} over row offsets. As in Lance (rowids/version.rs),
 * lookups are positional: run {@code k} covers the {@code span.length()} rows that follow the
 * rows of runs {@code 0..k-1}; the span's values themselves are not consulted.
 */
public final class RowVersionSequence {
  /** Row offsets are u32, so a fragment has at most 2^32 rows. */
  public static final long MAX_LENGTH = RowIdSequence.MAX_LENGTH;

  private static final RowVersionSequence EMPTY = new RowVersionSequence(List.of());

  /** The rows counted by {@code span} carry {@code version}. */
  public record Run(U64Segment span, long version) {
    public Run {
      Objects.requireNonNull(span, "span");
    }

    /** The number of rows in the run. */
    public long length() {
      return span.length();
    }
  }

  private final List<Run> runs;
  private final long[] ends; // cumulative row counts

  private RowVersionSequence(List<Run> runs) {
    this.runs = List.copyOf(runs);
    this.ends = new long[this.runs.size()];
    long total = 0;
    for (int i = 0; i < ends.length; i++) {
      total = Math.addExact(total, this.runs.get(i).length());
      ends[i] = total;
    }
  }

  /** No rows. */
  public static RowVersionSequence empty() {
    return EMPTY;
  }

  /** The given runs, in order. */
  public static RowVersionSequence of(List<Run> runs) {
    return runs.isEmpty() ? EMPTY : new RowVersionSequence(runs);
  }

  /**
   * All {@code rows} rows at {@code version}: one run spanning {@code Range{0, rows}}, as Lance
   * writes for a new fragment. Zero rows gives no runs, as in Lance.
   */
  public static RowVersionSequence uniform(long rows, long version) {
    if (rows < 0) {
      throw new IllegalArgumentException("negative row count " + rows);
    }
    return rows == 0 ? EMPTY : new RowVersionSequence(List.of(new Run(new U64Segment.Range(0, rows), version)));
  }

  /**
   * Decodes a serialized {@code RowDatasetVersionSequence} message.
   *
   * @param where names the data in errors, e.g. {@code "fragment 3 created_at versions"}
   * @throws FormatException naming {@code where} if the bytes are not a valid sequence
   */
  public static RowVersionSequence decode(byte[] bytes, String where) {
    RowIdProtos.RowDatasetVersionSequence pb;
    try {
      pb = RowIdProtos.RowDatasetVersionSequence.parseFrom(bytes);
    } catch (InvalidProtocolBufferException | RuntimeException e) {
      throw new FormatException(
          where, "not a valid RowDatasetVersionSequence message (" + e.getMessage() + ")", e);
    }
    return fromProto(pb, where);
  }

  /**
   * Converts the protobuf form, checking every run and the total length.
   *
   * @throws FormatException naming {@code where} and the failing run
   */
  public static RowVersionSequence fromProto(RowIdProtos.RowDatasetVersionSequence pb, String where) {
    List<Run> runs = new ArrayList<>(pb.getRunsCount());
    long total = 0;
    for (int i = 0; i < pb.getRunsCount(); i++) {
      RowIdProtos.RowDatasetVersionRun run = pb.getRuns(i);
      if (!run.hasSpan()) {
        throw new FormatException(where, "run " + i + " has no span");
      }
      U64Segment span;
      try {
        span = U64Segment.fromProto(run.getSpan(), where);
      } catch (FormatException e) {
        throw new FormatException(where, "run " + i + ": " + e.defect(), e);
      }
      total += span.length();
      if (total > MAX_LENGTH) {
        throw new FormatException(where, "runs cover more than 2^32 rows, more than a fragment can have");
      }
      runs.add(new Run(span, run.getVersion()));
    }
    return of(runs);
  }

  /** The protobuf form. */
  public RowIdProtos.RowDatasetVersionSequence toProto() {
    RowIdProtos.RowDatasetVersionSequence.Builder b = RowIdProtos.RowDatasetVersionSequence.newBuilder();
    for (Run run : runs) {
      b.addRuns(RowIdProtos.RowDatasetVersionRun.newBuilder().setSpan(run.span().toProto()).setVersion(run.version()));
    }
    return b.build();
  }

  /** The serialized {@code RowDatasetVersionSequence} message. */
  public byte[] encode() {
    return toProto().toByteArray();
  }

  /** The runs, in order (unmodifiable). */
  public List<Run> runs() {
    return runs;
  }

  /** The number of rows covered. */
  public long length() {
    return ends.length == 0 ? 0 : ends[ends.length - 1];
  }

  /**
   * The version of the row at {@code offset}.
   *
   * @throws IndexOutOfBoundsException unless {@code 0 <= offset < length()}
   */
  public long versionAt(long offset) {
    Objects.checkIndex(offset, length());
    int lo = 0;
    int hi = ends.length - 1;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (ends[mid] <= offset) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return runs.get(lo).version();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof RowVersionSequence other && runs.equals(other.runs);
  }

  @Override
  public int hashCode() {
    return runs.hashCode();
  }

  @Override
  public String toString() {
    return "RowVersionSequence" + runs;
  }
}
