package dev.lancet.interop.readme;

import dev.lancet.table.LanceTable;

/** README snippet "branches": a branch of main, written and tagged without touching main. */
final class BranchesSnippet {
  private BranchesSnippet() {}

  static long run(String uri) {
    long branchRows;
    // README:begin
    try (LanceTable table = LanceTable.open(uri)) {
      table.branches().create("trial");            // at main's newest version
      LanceTable trial = table.branch("trial");    // reads and writes go to the branch
      trial.delete("score < 10");
      trial.tags().create("trial-done", trial.version());
      System.out.println("main: " + table.countRows() + " rows; trial: " + trial.countRows()
          + " rows at its version " + trial.version());
      table.branches().list().forEach(b -> System.out.println(b.name() + " from version "
          + b.parentVersion() + " of " + b.parentBranch().orElse("main")));
      branchRows = trial.countRows();
    }
    // README:end
    return branchRows;
  }
}
