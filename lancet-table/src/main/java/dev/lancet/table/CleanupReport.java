package dev.lancet.table;

import java.util.List;

/**
 * What a cleanup removes (a dry run) or removed: the versions whose manifests go, and every
 * file that goes with its size, and how many bytes that frees. {@code kept} says why versions
 * older than the threshold stay (the latest, tagged ones).
 */
public record CleanupReport(boolean dryRun, List<Long> versionsRemoved, List<String> filesRemoved,
    long bytesRemoved, List<String> kept) {
  public CleanupReport {
    versionsRemoved = List.copyOf(versionsRemoved);
    filesRemoved = List.copyOf(filesRemoved);
    kept = List.copyOf(kept);
  }
}
