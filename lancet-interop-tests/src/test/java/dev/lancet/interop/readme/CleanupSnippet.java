package dev.lancet.interop.readme;

import dev.lancet.table.CleanupReport;
import dev.lancet.table.LanceTable;
import java.time.Duration;

/** README snippet "cleanup": dry run first, then remove. */
final class CleanupSnippet {
  private CleanupSnippet() {}

  static CleanupReport run(String uri, Duration olderThan) {
    CleanupReport done;
    // README:begin
    try (LanceTable table = LanceTable.open(uri)) {
      CleanupReport plan = table.cleanup().olderThan(olderThan).dryRun();
      System.out.println("would remove versions " + plan.versionsRemoved() + ", "
          + plan.bytesRemoved() + " bytes; keeps " + plan.kept());
      done = table.cleanup().olderThan(olderThan).commit();
    }
    // README:end
    return done;
  }
}
