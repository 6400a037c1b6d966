package dev.lancet.format.model;

import com.google.protobuf.ByteString;
import com.google.protobuf.UnknownFieldSet;
import dev.lancet.format.deletion.PortableRoaring;
import java.util.List;
import java.util.Objects;
import org.roaringbitmap.RoaringBitmap;

/**
 * New values for some (row offset, field) cells of a fragment. Coverage is either one bitmap
 * shared by all fields of {@code dataFile} or one bitmap per field (portable 32-bit Roaring
 * over physical offsets). {@code committedVersion} is stamped at commit; the newest wins.
 */
public record DataOverlayFile(
    DataFile dataFile, Coverage coverage, long committedVersion, UnknownFieldSet unknownFields) {

  /** Which offsets the overlay covers. */
  public sealed interface Coverage {}

  /** One bitmap for every field of the overlay file. */
  public record SharedCoverage(ByteString offsetBitmap) implements Coverage {
    public SharedCoverage {
      Objects.requireNonNull(offsetBitmap, "offsetBitmap");
    }
  }

  /** One bitmap per field, in the order of the overlay file's fields. */
  public record PerFieldCoverage(List<ByteString> offsetBitmaps) implements Coverage {
    public PerFieldCoverage {
      offsetBitmaps = List.copyOf(offsetBitmaps);
    }
  }

  public DataOverlayFile {
    Objects.requireNonNull(dataFile, "dataFile");
    Objects.requireNonNull(coverage, "coverage");
    Objects.requireNonNull(unknownFields, "unknownFields");
  }

  /** Every physical offset the overlay covers, in any field (a malformed bitmap is a FormatException). */
  public RoaringBitmap coveredOffsets() {
    String where = "coverage of overlay " + dataFile.path();
    if (coverage instanceof SharedCoverage s) {
      return PortableRoaring.read(s.offsetBitmap().toByteArray(), where);
    }
    RoaringBitmap all = new RoaringBitmap();
    for (ByteString b : ((PerFieldCoverage) coverage).offsetBitmaps()) {
      all.or(PortableRoaring.read(b.toByteArray(), where));
    }
    return all;
  }

  /**
   * The offsets the overlay covers per field of its data file, in file order (a tombstoned
   * slot is left out; a shared bitmap covers every field). A malformed bitmap, or a per-field
   * list whose length differs from the file's field count, is a FormatException.
   */
  public java.util.Map<Integer, RoaringBitmap> coveredOffsetsByField() {
    String where = "coverage of overlay " + dataFile.path();
    java.util.Map<Integer, RoaringBitmap> out = new java.util.LinkedHashMap<>();
    List<Integer> fields = dataFile.fields();
    if (coverage instanceof SharedCoverage s) {
      RoaringBitmap shared = PortableRoaring.read(s.offsetBitmap().toByteArray(), where);
      for (int field : fields) {
        if (field >= 0) {
          out.computeIfAbsent(field, f -> new RoaringBitmap()).or(shared);
        }
      }
      return out;
    }
    List<ByteString> bitmaps = ((PerFieldCoverage) coverage).offsetBitmaps();
    if (bitmaps.size() != fields.size()) {
      throw new dev.lancet.format.FormatException(where, "it lists " + bitmaps.size()
          + " bitmaps for " + fields.size() + " fields; it needs one per field");
    }
    for (int i = 0; i < fields.size(); i++) {
      if (fields.get(i) >= 0) {
        out.computeIfAbsent(fields.get(i), f -> new RoaringBitmap())
            .or(PortableRoaring.read(bitmaps.get(i).toByteArray(), where));
      }
    }
    return out;
  }

  public DataOverlayFile withCommittedVersion(long version) {
    return new DataOverlayFile(dataFile, coverage, version, unknownFields);
  }
}
