package dev.lancet.table.expr;

import java.nio.charset.StandardCharsets;
import java.util.regex.Pattern;

/**
 * A compiled LIKE / ILIKE pattern with Lance's (arrow-rs') rules: {@code %} matches any sequence
 * of characters (newlines included), {@code _} exactly one character (a code point, not a byte),
 * a backslash makes the next character literal ({@code \x} is {@code x}), and a trailing
 * backslash is a literal backslash. The match is over the whole value.
 *
 * <p>Patterns of the common shapes ({@code abc}, {@code abc%}, {@code %abc}, {@code %abc%},
 * {@code %}) are matched on the UTF-8 bytes directly; others go through {@link Pattern}. ILIKE
 * with an ASCII pattern of those shapes folds ASCII case only, as arrow-rs' ASCII fast paths do;
 * other ILIKE patterns fold Unicode case.
 */
final class LikePattern {

  enum Shape {
    EXACT,
    PREFIX,
    SUFFIX,
    CONTAINS,
    ANY,
    GENERAL
  }

  private final String source;
  private final boolean caseInsensitive;
  private final Shape shape;
  private final byte[] literal;
  private final Pattern regex;

  private LikePattern(
      String source, boolean caseInsensitive, Shape shape, byte[] literal, Pattern regex) {
    this.source = source;
    this.caseInsensitive = caseInsensitive;
    this.shape = shape;
    this.literal = literal;
    this.regex = regex;
  }

  static LikePattern compile(String pattern, boolean caseInsensitive) {
    // Tokenize: a literal code point, or a wildcard.
    StringBuilder lit = new StringBuilder();
    StringBuilder re = new StringBuilder();
    int percents = 0;
    int underscores = 0;
    boolean leadingPercent = false;
    boolean trailingPercent = false;
    boolean literalRun = true; // all literals form one contiguous run
    boolean seenLiteral = false;
    boolean literalEnded = false;
    int n = pattern.length();
    for (int i = 0; i < n; ) {
      int cp = pattern.codePointAt(i);
      int len = Character.charCount(cp);
      if (cp == '\\') {
        int next = i + len;
        int literalCp;
        if (next < n) {
          literalCp = pattern.codePointAt(next);
          len += Character.charCount(literalCp);
        } else {
          literalCp = '\\';
        }
        if (literalEnded) {
          literalRun = false;
        }
        seenLiteral = true;
        lit.appendCodePoint(literalCp);
        re.append(Pattern.quote(new String(Character.toChars(literalCp))));
      } else if (cp == '%') {
        percents++;
        if (!seenLiteral) {
          leadingPercent = true;
        } else {
          literalEnded = true;
        }
        if (i + len == n) {
          trailingPercent = true;
        }
        re.append(".*");
      } else if (cp == '_') {
        underscores++;
        re.append('.');
        if (seenLiteral) {
          literalEnded = true;
        }
      } else {
        if (literalEnded) {
          literalRun = false;
        }
        seenLiteral = true;
        lit.appendCodePoint(cp);
        re.append(Pattern.quote(new String(Character.toChars(cp))));
      }
      i += len;
    }
    String literal = lit.toString();
    boolean ascii = literal.chars().allMatch(c -> c < 0x80);
    Shape shape = Shape.GENERAL;
    if (underscores == 0 && literalRun && (!caseInsensitive || ascii)) {
      if (!seenLiteral) {
        shape = percents > 0 ? Shape.ANY : Shape.EXACT;
      } else if (percents == 0) {
        shape = Shape.EXACT;
      } else if (percents == 1 && trailingPercent && !leadingPercent) {
        shape = Shape.PREFIX;
      } else if (percents == 1 && leadingPercent && !trailingPercent) {
        shape = Shape.SUFFIX;
      } else if (percents == 2 && leadingPercent && trailingPercent) {
        shape = Shape.CONTAINS;
      }
    }
    Pattern regex = null;
    if (shape == Shape.GENERAL) {
      int flags = Pattern.DOTALL;
      if (caseInsensitive) {
        flags |= Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE;
      }
      regex = Pattern.compile(re.toString(), flags);
    }
    return new LikePattern(
        pattern, caseInsensitive, shape, literal.getBytes(StandardCharsets.UTF_8), regex);
  }

  Shape shape() {
    return shape;
  }

  String source() {
    return source;
  }

  /** Whether bytes {@code data[start, end)} (UTF-8) match. */
  boolean matches(byte[] data, int start, int end) {
    int len = end - start;
    byte[] lit = literal;
    switch (shape) {
      case ANY:
        return true;
      case EXACT:
        return len == lit.length && regionEquals(data, start, lit);
      case PREFIX:
        return len >= lit.length && regionEquals(data, start, lit);
      case SUFFIX:
        return len >= lit.length && regionEquals(data, end - lit.length, lit);
      case CONTAINS:
        return indexOf(data, start, end, lit) >= 0;
      default:
        return regex.matcher(new String(data, start, len, StandardCharsets.UTF_8)).matches();
    }
  }

  private boolean regionEquals(byte[] data, int at, byte[] lit) {
    if (caseInsensitive) {
      for (int k = 0; k < lit.length; k++) {
        if (lowerAscii(data[at + k]) != lowerAscii(lit[k])) {
          return false;
        }
      }
      return true;
    }
    for (int k = 0; k < lit.length; k++) {
      if (data[at + k] != lit[k]) {
        return false;
      }
    }
    return true;
  }

  private int indexOf(byte[] data, int start, int end, byte[] lit) {
    int last = end - lit.length;
    for (int i = start; i <= last; i++) {
      if (regionEquals(data, i, lit)) {
        return i;
      }
    }
    return -1;
  }

  private static byte lowerAscii(byte b) {
    return b >= 'A' && b <= 'Z' ? (byte) (b + 32) : b;
  }

  @Override
  public String toString() {
    return (caseInsensitive ? "ILIKE '" : "LIKE '") + source.replace("'", "''") + "'";
  }
}
