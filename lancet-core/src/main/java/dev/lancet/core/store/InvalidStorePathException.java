package dev.lancet.core.store;

/**
 * Thrown when a store path is malformed or could resolve outside the table root. The message
 * names the path and the rule it broke.
 */
public class InvalidStorePathException extends IllegalArgumentException {
  private final String path;
  private final String reason;

  public InvalidStorePathException(String path, String reason) {
    super("Invalid store path " + dev.lancet.format.Texts.doubleQuote(path) + ": " + reason);
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
}
