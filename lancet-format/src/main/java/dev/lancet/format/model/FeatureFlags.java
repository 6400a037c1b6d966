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
  /**
   * Some index declares covering columns ({@code IndexMetadata.covering_fields}), so its
   * {@code fields} are keys followed by carried columns (lance-format/lance
   * {@code rust/lance-table/src/feature_flags.rs} @08ea21b2, shipped in v11.0.0). The bit was
   * MemWAL index catch-up in v11 betas only; lance-format/lance#8680 retired that meaning.
   */
  public static final long COVERED_INDEX_METADATA = 128;

  /** Every bit Lancet understands when reading. */
  public static final long KNOWN_READER = DELETION_FILES | STABLE_ROW_IDS | USE_V2_FORMAT
      | TABLE_CONFIG | BASE_PATHS | DISABLE_TRANSACTION_FILE | DATA_OVERLAY_FILES
      | COVERED_INDEX_METADATA;

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
   * Flags implied by the manifest's content and its indices, as Lance computes them on commit.
   * Table config is a writer-only bit. Stable row ids cannot be derived from content, so they
   * are carried from the previous manifest's flags. Covered index metadata is set exactly while
   * some index declares covering fields, not carried (upstream sets it from the index list it
   * commits, so the fence lifts again when the last covering index goes).
   */
  public static Pair derive(Manifest m, List<IndexSegment> indices) {
    long both = m.readerFeatureFlags() & STABLE_ROW_IDS;
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
    for (IndexSegment s : indices) {
      if (!s.coveringFields().isEmpty()) {
        both |= COVERED_INDEX_METADATA;
      }
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
        "base_paths", "disable_transaction_file", "data_overlay_files", "covered_index_metadata"};
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
