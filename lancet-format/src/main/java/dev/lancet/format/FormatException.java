package dev.lancet.format;

/**
 * A file or message that does not follow the Lance format: truncated, corrupted, of the wrong
 * kind, or naming something it may not. Always names the file (or the place inside it) and
 * the defect, so a user knows what to look at.
 */
public class FormatException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final String file;
  private final String defect;

  public FormatException(String file, String defect) {
    super(file + ": " + defect);
    this.file = file;
    this.defect = defect;
  }

  public FormatException(String file, String defect, Throwable cause) {
    super(file + ": " + defect, cause);
    this.file = file;
    this.defect = defect;
  }

  /** The file (or place within a file) that is malformed. */
  public String file() {
    return file;
  }

  /** What is wrong with it. */
  public String defect() {
    return defect;
  }
}
