package dev.lancet.format.model;

import com.google.protobuf.UnknownFieldSet;
import java.util.Objects;
import java.util.OptionalInt;

/**
 * A fragment's tombstones: the file {@code _deletions/{fragment}-{readVersion}-{id}.{ext}}.
 * {@code kindValue} is the wire enum value (0 Arrow, 1 bitmap); an unknown value is kept as
 * read so that it survives a rewrite, and {@link #kind()} rejects it.
 */
public record DeletionFile(
    int kindValue,
    long readVersion,
    long id,
    long numDeletedRows,
    OptionalInt baseId,
    UnknownFieldSet unknownFields) {

  /** The two forms of deletion file. */
  public enum Kind {
    ARROW_ARRAY(0, "arrow"),
    BITMAP(1, "bin");

    private final int wireValue;
    private final String extension;

    Kind(int wireValue, String extension) {
      this.wireValue = wireValue;
      this.extension = extension;
    }

    public int wireValue() {
      return wireValue;
    }

    public String extension() {
      return extension;
    }

    /** The kind for a wire value; {@code where} names the message for the error. */
    public static Kind fromWireValue(int value, String where) {
      for (Kind k : values()) {
        if (k.wireValue == value) {
          return k;
        }
      }
      throw new dev.lancet.format.FormatException(where, "unknown deletion file type " + value
          + " (a newer Lance wrote it?)");
    }

    /** The kind whose file extension is {@code extension}, or null. */
    public static Kind fromExtension(String extension) {
      for (Kind k : values()) {
        if (k.extension.equals(extension)) {
          return k;
        }
      }
      return null;
    }
  }

  public DeletionFile {
    Objects.requireNonNull(baseId, "baseId");
    Objects.requireNonNull(unknownFields, "unknownFields");
  }

  public DeletionFile(Kind kind, long readVersion, long id, long numDeletedRows) {
    this(kind.wireValue(), readVersion, id, numDeletedRows, OptionalInt.empty(),
        UnknownFieldSet.getDefaultInstance());
  }

  /** The form of the file; throws for a wire value this build does not know. */
  public Kind kind() {
    return Kind.fromWireValue(kindValue, "deletion file " + id);
  }

  /** File name relative to {@code _deletions/} for the given fragment. */
  public String fileName(long fragmentId) {
    return Long.toUnsignedString(fragmentId) + "-" + Long.toUnsignedString(readVersion) + "-"
        + Long.toUnsignedString(id) + "." + kind().extension();
  }
}
