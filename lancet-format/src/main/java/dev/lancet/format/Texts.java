package dev.lancet.format;

/**
 * Puts user-supplied text (a path, a name, a type) into an error message: quoted, control
 * characters made visible, and cut to a bounded length so that a 100,000-character path gives a
 * one-line message and not a 100 KB one.
 */
public final class Texts {
  /** Characters of a value shown in a message before it is cut. */
  public static final int SHOWN = 160;

  private Texts() {}

  /** {@code 'value'}, escaped and cut to {@link #SHOWN} characters (the full length is stated). */
  public static String quote(String value) {
    return "'" + shown(value) + "'";
  }

  /** {@code "value"}, escaped and cut like {@link #quote}. */
  public static String doubleQuote(String value) {
    return "\"" + shown(value) + "\"";
  }

  /** A message cut to {@code max} characters, saying how much was left out. */
  public static String bounded(String message, int max) {
    if (message == null || message.length() <= max) {
      return message;
    }
    return message.substring(0, max) + "... (" + (message.length() - max) + " more characters)";
  }

  private static String shown(String value) {
    int end = Math.min(value.length(), SHOWN);
    StringBuilder out = new StringBuilder(end + 16);
    for (int i = 0; i < end; i++) {
      char c = value.charAt(i);
      if (c < 0x20 || c == 0x7f) {
        out.append(String.format("\\u%04x", (int) c));
      } else {
        out.append(c);
      }
    }
    if (end < value.length()) {
      out.append("...(").append(value.length()).append(" characters)");
    }
    return out.toString();
  }
}
