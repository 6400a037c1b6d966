package dev.lancet.format.deletion;

import dev.lancet.format.model.DeletionFile;
import dev.lancet.format.FormatException;
import java.security.SecureRandom;

/**
 * Names of deletion files: {@code {fragment_id}-{read_version}-{id}.{arrow|bin}} inside the
 * table's {@code _deletions/} directory. All three numbers are unsigned 64-bit decimals; {@code
 * read_version} is the table version the deleting writer read, and {@code id} is random so that
 * concurrent writers never pick the same name.
 */
public final class DeletionFileNames {
  /** The directory, relative to a table root, that holds deletion files. */
  public static final String DIRECTORY = "_deletions";

  // Shared and thread-safe; the id only has to be unlikely to collide across processes.
  private static final SecureRandom RANDOM = new SecureRandom();

  private DeletionFileNames() {}

  /**
   * The parts of a deletion file name. Numbers are unsigned 64-bit values held in {@code long}s.
   */
  public record Parts(long fragmentId, long readVersion, long id, DeletionFile.Kind kind) {
    public Parts {
      if (kind == null) {
        throw new NullPointerException("kind");
      }
    }

    /** The bare file name. */
    public String fileName() {
      return DeletionFileNames.fileName(fragmentId, readVersion, id, kind);
    }

    /** The path relative to the table root: {@code _deletions/<file name>}. */
    public String relativePath() {
      return DIRECTORY + "/" + fileName();
    }
  }

  /** The bare file name {@code {fragment_id}-{read_version}-{id}.{ext}}. */
  public static String fileName(long fragmentId, long readVersion, long id, DeletionFile.Kind kind) {
    return Long.toUnsignedString(fragmentId)
        + "-"
        + Long.toUnsignedString(readVersion)
        + "-"
        + Long.toUnsignedString(id)
        + "."
        + kind.extension();
  }

  /** The path relative to the table root: {@code _deletions/<file name>}. */
  public static String relativePath(
      long fragmentId, long readVersion, long id, DeletionFile.Kind kind) {
    return DIRECTORY + "/" + fileName(fragmentId, readVersion, id, kind);
  }

  /** A fresh random id (any u64 value). */
  public static long newId() {
    return RANDOM.nextLong();
  }

  /**
   * Parses a bare file name (no directory). Numbers must be canonical unsigned decimals (digits
   * only, no leading zeros, at most 2^64-1), as Lance writes them.
   *
   * @throws FormatException naming {@code fileName} if it does not follow the rule
   */
  public static Parts parse(String fileName) {
    int dot = fileName.lastIndexOf('.');
    if (dot < 0) {
      throw new FormatException(fileName, "deletion file name has no extension");
    }
    DeletionFile.Kind kind = DeletionFile.Kind.fromExtension(fileName.substring(dot + 1));
    if (kind == null) {
      throw new FormatException(fileName, "deletion file extension must be .arrow or .bin");
    }
    String[] numbers = fileName.substring(0, dot).split("-", -1);
    if (numbers.length != 3) {
      throw new FormatException(
          fileName, "deletion file name must be {fragment_id}-{read_version}-{id}.{ext}");
    }
    return new Parts(
        parseU64(numbers[0], fileName, "fragment id"),
        parseU64(numbers[1], fileName, "read version"),
        parseU64(numbers[2], fileName, "id"),
        kind);
  }

  private static long parseU64(String text, String fileName, String what) {
    boolean digitsOnly = !text.isEmpty() && text.chars().allMatch(c -> c >= '0' && c <= '9');
    if (!digitsOnly) {
      throw new FormatException(fileName, what + " '" + text + "' is not an unsigned decimal");
    }
    if (text.length() > 1 && text.charAt(0) == '0') {
      throw new FormatException(fileName, what + " '" + text + "' has a leading zero");
    }
    try {
      return Long.parseUnsignedLong(text);
    } catch (NumberFormatException e) {
      throw new FormatException(fileName, what + " '" + text + "' exceeds 2^64-1", e);
    }
  }
}
