package dev.lancet.core.version;

/**
 * How large a file Lancet reads whole before parsing it. Each limit is either derived from the
 * format or configurable with a system property, so that a corrupt or hostile table cannot make
 * a reader allocate gigabytes before it finds out the file is garbage.
 *
 * <ul>
 *   <li>{@code _versions/latest_version_hint.json}: {@value #HINT_BYTES} bytes. It holds
 *       {@code {"version":N}} with N below 2^64, at most 32 bytes; the slack allows whitespace. A
 *       larger hint is ignored (a hint is only a hint: the versions are listed instead).
 *   <li>A manifest: {@code lancet.maxManifestBytes}, default 1 GiB (a 100,000-fragment manifest is
 *       16 MB). A manifest larger than {@value #FOOTER_FIRST_BYTES} bytes has its 16-byte footer
 *       read and checked first, so a large file that is not a manifest is refused unread.
 *   <li>A {@code .txn} file: {@code lancet.maxTransactionBytes}, default 256 MiB (a 10,000-action
 *       transaction is about 1 MB).
 *   <li>A deletion file: {@code lancet.maxDeletionFileBytes}, default 512 MiB (a Roaring bitmap of
 *       every one of a fragment's 2^32 possible rows).
 *   <li>A branch or tag file ({@code _refs/}): {@value #REF_BYTES} bytes, room for a long lineage
 *       and free-form metadata.
 * </ul>
 */
public final class ReadLimits {
  /** The largest version hint read. */
  public static final int HINT_BYTES = 1024;
  /** Manifests larger than this have their footer checked before being read. */
  public static final long FOOTER_FIRST_BYTES = 4L << 20;
  /** The largest branch or tag file read. */
  public static final int REF_BYTES = 1 << 20;

  private ReadLimits() {}

  public static long maxManifestBytes() {
    return property("lancet.maxManifestBytes", 1L << 30);
  }

  public static long maxTransactionBytes() {
    return property("lancet.maxTransactionBytes", 256L << 20);
  }

  public static long maxDeletionFileBytes() {
    return property("lancet.maxDeletionFileBytes", 512L << 20);
  }

  private static long property(String name, long fallback) {
    String value = System.getProperty(name);
    if (value == null || value.isBlank()) {
      return fallback;
    }
    try {
      long v = Long.parseLong(value.strip());
      if (v <= 0) {
        throw new NumberFormatException("not positive");
      }
      return v;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("system property " + name + " must be a positive number "
          + "of bytes, not '" + value + "'");
    }
  }
}
