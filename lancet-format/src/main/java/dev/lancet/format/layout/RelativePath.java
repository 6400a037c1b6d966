package dev.lancet.format.layout;

/**
 * The one rule for a path relative to a directory of the table ({@code data/}, {@code _indices/},
 * the table root): one or more non-empty '/'-separated segments, no '.' or '..' segment, no
 * leading or trailing '/', no backslash, no control character (NUL included), no drive letter,
 * at most {@link #MAX_LENGTH} characters. Such a path names the same object in every store and
 * cannot leave its directory. The object store ({@code StorePath}) and the manifest validator
 * both use it; each adds its own rules on top (the store reserves a temporary-file prefix; a
 * manifest may not name a URI).
 */
public final class RelativePath {
  /** Longest path accepted: POSIX PATH_MAX, and above what object stores allow in a key. */
  public static final int MAX_LENGTH = 4096;

  private RelativePath() {}

  /** Why {@code path} is not a safe relative path, or null when it is one. Allocates nothing when it is. */
  public static String problem(String path) {
    if (path.isEmpty()) {
      return "the path is empty";
    }
    if (path.length() > MAX_LENGTH) {
      return "the path is " + path.length() + " characters long, more than " + MAX_LENGTH;
    }
    for (int i = 0; i < path.length(); i++) {
      char c = path.charAt(i);
      if (c == '\0') {
        return "NUL character at index " + i;
      }
      if (c < 0x20 || c == 0x7f) {
        return "control character at index " + i;
      }
      if (c == '\\') {
        return "backslash at index " + i + "; separate segments with '/'";
      }
    }
    if (path.charAt(0) == '/') {
      return "absolute paths are not allowed; use a path relative to the table root";
    }
    if (path.charAt(path.length() - 1) == '/') {
      return "an object path must not end with '/'";
    }
    int start = 0;
    while (start <= path.length()) {
      int end = path.indexOf('/', start);
      if (end < 0) {
        end = path.length();
      }
      int len = end - start;
      if (len == 0) {
        return "empty segment ('//')";
      }
      if (len == 1 && path.charAt(start) == '.') {
        return "'.' segments are not allowed; write the path without them";
      }
      if (len == 2 && path.charAt(start) == '.' && path.charAt(start + 1) == '.') {
        return "'..' segments are not allowed (they could escape the table root)";
      }
      if (start == 0 && len >= 2 && path.charAt(1) == ':' && isAsciiLetter(path.charAt(0))) {
        return "a drive letter makes the path absolute on Windows";
      }
      start = end + 1;
    }
    return null;
  }

  static boolean isAsciiLetter(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
  }
}
