package dev.lancet.cli.table;

import dev.lancet.cli.CliException;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Durations on the command line: {@code 14d}, {@code 12h}, {@code 30m}, {@code 0s}, or ISO-8601 {@code P14D}. */
public final class Durations {
  private static final Pattern SHORT = Pattern.compile("(\\d+)([smhdw])");

  private Durations() {}

  public static Duration parse(String s) {
    Matcher m = SHORT.matcher(s.trim());
    if (m.matches()) {
      long n = Long.parseLong(m.group(1));
      return switch (m.group(2)) {
        case "s" -> Duration.ofSeconds(n);
        case "m" -> Duration.ofMinutes(n);
        case "h" -> Duration.ofHours(n);
        case "d" -> Duration.ofDays(n);
        default -> Duration.ofDays(7 * n);
      };
    }
    try {
      return Duration.parse(s.trim());
    } catch (DateTimeParseException e) {
      throw new CliException("'" + s + "' is not a duration; write 14d, 12h, 30m, 0s or P14D");
    }
  }
}
