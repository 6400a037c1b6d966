package dev.lancet.core.store;

/**
 * Thrown when a store path is malformed or could resolve outside the table root. The message
 * names the path and the rule it broke.
 */
public class InvalidStorePathException extends IllegalArgumentException {
  private final String path;
  private final String reason;

  public InvalidStorePathException(String path, String reason) {
    super("Invalid store path " + quote(path) + ": " + reason);
    this.path = path;
    this.reason = reason;
  }

  /** The offending path, exactly as given. */
  public String path() {
    return path;
  }

  /** Why it was rejected. */
  public String reason() {
    return reason;
  }

  // Makes control characters visible in the message instead of printing them raw.
  private static String quote(String path) {
    StringBuilder out = new StringBuilder("\"");
    for (int i = 0; i < path.length(); i++) {
      char c = path.charAt(i);
      if (c < 0x20 || c == 0x7f) {
        out.append(String.format("\\u%04x", (int) c));
      } else {
        out.append(c);
      }
    }
    return out.append('"').toString();
  }
}
