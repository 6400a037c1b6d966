package dev.lancet.format.model;

import java.util.ArrayList;
import java.util.List;

/**
 * The manifest's feature bits. A reader (writer) must refuse a table whose reader (writer)
 * flags hold a bit it does not implement; the flags are recomputed from content on every
 * commit.
 */
public final class FeatureFlags {
  public static final long DELETION_FILES = 1;
  public static final long STABLE_ROW_IDS = 2;
  /** Deprecated; only used to infer the "2.0" storage format of very old manifests. */
  public static final long USE_V2_FORMAT = 4;
  public static final long TABLE_CONFIG = 8;
  public static final long BASE_PATHS = 16;
  public static final long DISABLE_TRANSACTION_FILE = 32;
  public static final long DATA_OVERLAY_FILES = 64;
  public static final long MEM_WAL_INDEX_CATCHUP = 128;

  /** Every bit Lancet understands when reading. */
  public static final long KNOWN_READER = DELETION_FILES | STABLE_ROW_IDS | USE_V2_FORMAT
      | TABLE_CONFIG | BASE_PATHS | DISABLE_TRANSACTION_FILE | DATA_OVERLAY_FILES
      | MEM_WAL_INDEX_CATCHUP;

  /** Every bit Lancet honours when writing. */
  public static final long KNOWN_WRITER = KNOWN_READER;

  private FeatureFlags() {}

  /** Bits of {@code flags} outside {@code known}. */
  public static long unknownBits(long flags, long known) {
    return flags & ~known;
  }

  /** A manifest's reader and writer flags. */
  public record Pair(long reader, long writer) {}

  /**
   * Flags implied by the manifest's content, as Lance computes them on commit. Table config
   * is a writer-only bit. Stable row ids and MemWAL catch-up cannot be derived from content,
   * so they are carried from the previous manifest's flags.
   */
  public static Pair derive(Manifest m) {
    long both = m.readerFeatureFlags() & (STABLE_ROW_IDS | MEM_WAL_INDEX_CATCHUP);
    for (Fragment f : m.fragments()) {
      if (f.deletionFile().isPresent()) {
        both |= DELETION_FILES;
      }
      if (!f.overlays().isEmpty()) {
        both |= DATA_OVERLAY_FILES;
      }
    }
    if (!m.basePaths().isEmpty()) {
      both |= BASE_PATHS;
    }
    long writer = both;
    if (!m.config().isEmpty()) {
      writer |= TABLE_CONFIG;
    }
    return new Pair(both, writer);
  }

  /** Names of the set bits, for display ("deletion_files, stable_row_ids"). */
  public static List<String> names(long flags) {
    List<String> out = new ArrayList<>();
    String[] names = {"deletion_files", "stable_row_ids", "use_v2_format", "table_config",
        "base_paths", "disable_transaction_file", "data_overlay_files", "mem_wal_index_catchup"};
    for (int i = 0; i < names.length; i++) {
      if ((flags & (1L << i)) != 0) {
        out.add(names[i]);
      }
    }
    long unknown = unknownBits(flags, KNOWN_READER);
    if (unknown != 0) {
      out.add("unknown(0x" + Long.toHexString(unknown) + ")");
    }
    return out;
  }
}
