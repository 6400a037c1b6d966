package dev.lancet.format.deletion;

import dev.lancet.format.FormatException;
import dev.lancet.format.pb.TableProtos.DeletionFile.DeletionFileType;

/**
 * The two on-disk forms of a deletion file, mirroring {@code DeletionFile.DeletionFileType}.
 */
public enum DeletionFileKind {
  /** An Arrow IPC file with one non-nullable UInt32 column {@code row_id}; extension {@code arrow}. */
  ARROW_ARRAY("arrow", DeletionFileType.ARROW_ARRAY),
  /** A portable 32-bit Roaring bitmap; extension {@code bin}. */
  BITMAP("bin", DeletionFileType.BITMAP);

  private final String extension;
  private final DeletionFileType proto;

  DeletionFileKind(String extension, DeletionFileType proto) {
    this.extension = extension;
    this.proto = proto;
  }

  /** The file name extension, without the dot. */
  public String extension() {
    return extension;
  }

  /** The protobuf enum value. */
  public DeletionFileType toProto() {
    return proto;
  }

  /**
   * The kind for a protobuf enum value.
   *
   * @param where names the message being read, for the error
   * @throws FormatException for a value this version does not know
   */
  public static DeletionFileKind fromProto(DeletionFileType type, String where) {
    for (DeletionFileKind kind : values()) {
      if (kind.proto == type) {
        return kind;
      }
    }
    throw new FormatException(where, "unknown deletion file type " + type);
  }

  /** The kind whose extension is {@code extension}, or null. */
  static DeletionFileKind fromExtension(String extension) {
    for (DeletionFileKind kind : values()) {
      if (kind.extension.equals(extension)) {
        return kind;
      }
    }
    return null;
  }
}
