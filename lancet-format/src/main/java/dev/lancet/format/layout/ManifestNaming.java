package dev.lancet.format.layout;

import java.util.Optional;

/**
 * The two manifest naming schemes of {@code _versions/}. V1: {@code {v}.manifest}. V2: the
 * bitwise complement of {@code v} as exactly 20 zero-padded unsigned decimal digits, so that
 * an ordered listing yields the newest version first. Detached versions ({@code d{v}.manifest},
 * top bit set) live outside the linear history and never count as the latest.
 */
public enum ManifestNaming {
  V1,
  V2;

  public static final String VERSIONS_DIR = "_versions/";
  private static final String SUFFIX = ".manifest";
  private static final int V2_NAME_LENGTH = 20 + SUFFIX.length();

  /** The file name (not path) of version {@code v} under this scheme. */
  public String fileName(long version) {
    if (this == V1) {
      return Long.toUnsignedString(version) + SUFFIX;
    }
    String digits = Long.toUnsignedString(~version);
    return "0".repeat(20 - digits.length()) + digits + SUFFIX;
  }

  public String path(long version) {
    return VERSIONS_DIR + fileName(version);
  }

  /** A manifest file name parsed into its version and scheme. */
  public record Parsed(long version, ManifestNaming naming, boolean detached) {}

  /**
   * Parses a file name from {@code _versions/}; empty for anything that is not a manifest
   * (staging files {@code N.manifest-uuid}, the version hint, temporary files).
   */
  public static Optional<Parsed> parse(String fileName) {
    if (!fileName.endsWith(SUFFIX)) {
      return Optional.empty();
    }
    String stem = fileName.substring(0, fileName.length() - SUFFIX.length());
    if (stem.isEmpty()) {
      return Optional.empty();
    }
    boolean detached = stem.charAt(0) == 'd';
    if (detached) {
      stem = stem.substring(1);
    }
    if (stem.isEmpty() || stem.length() > 20 || !stem.chars().allMatch(c -> c >= '0' && c <= '9')) {
      return Optional.empty();
    }
    long value;
    try {
      value = Long.parseUnsignedLong(stem);
    } catch (NumberFormatException e) {
      return Optional.empty();
    }
    if (detached) {
      return Optional.of(new Parsed(value, V2, true));
    }
    if (fileName.length() == V2_NAME_LENGTH) {
      return Optional.of(new Parsed(~value, V2, false));
    }
    return Optional.of(new Parsed(value, V1, false));
  }
}
