package dev.lancet.demo;

import java.time.Duration;
import java.util.List;

/**
 * What a demo run did and found: every commit attempt in order, the acknowledged commits, the
 * checks of the final table, and errors a writer hit that were not part of the plan.
 */
public record DemoReport(
    DemoLocation table,
    long finalVersion,
    List<AttemptRecord> attempts,
    List<Acknowledged> acknowledged,
    List<Check> checks,
    List<String> errors,
    Duration elapsed) {

  public DemoReport {
    attempts = List.copyOf(attempts);
    acknowledged = List.copyOf(acknowledged);
    checks = List.copyOf(checks);
    errors = List.copyOf(errors);
  }

  /** True when every check passed and no writer hit an unplanned error. */
  public boolean passed() {
    return errors.isEmpty() && checks.stream().allMatch(Check::passed);
  }
}
