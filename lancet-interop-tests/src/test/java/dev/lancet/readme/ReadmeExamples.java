package dev.lancet.readme;

// readme:begin add-column
import dev.lancet.core.Table;
import dev.lancet.core.action.Ref;
import dev.lancet.core.commit.CommitResult;
import dev.lancet.demo.LanceDataFiles;
import dev.lancet.format.model.DataFile;
import dev.lancet.format.model.Field;
import java.nio.file.Path;
import org.apache.arrow.vector.VectorSchemaRoot;
// readme:end add-column
// readme:begin replan
import dev.lancet.core.commit.ConflictingCommitException;
import dev.lancet.core.transaction.TransactionBuilder;
import java.util.function.Function;
// readme:end replan

/**
 * The Java examples of the README, as real code: {@code ReadmeTest} runs each one against a
 * table lance-core wrote and checks that the README's code blocks are exactly these regions
 * (the imports of a snippet, then its method).
 */
final class ReadmeExamples {
  private ReadmeExamples() {}

  // readme:begin add-column
  /**
   * Adds column {@code score} to fragment 0 and records the load in the table config, as one
   * atomic Lance version. {@code scores} holds one int32 {@code score} per physical row.
   */
  static long addScoreColumn(Path tableDir, VectorSchemaRoot scores) {
    try (Table table = Table.open(tableDir.toString())) {
      // The data file is a real Lance file, written through lance-core's LanceFileWriter.
      DataFile file = LanceDataFiles.write(tableDir, scores);
      CommitResult result = table.newTransaction()
          .step("add column score", s -> s
              .addField(0, Field.builder(0, "score", "int32").build())
              .addDataFile(Ref.committed(0), file, Ref.local(0)))
          .step("record the load", s -> s.setConfig("etl.last_load", "2026-12-01"))
          .commit(); // or .apply() to preview the manifest without publishing
      return result.version();
    }
  }
  // readme:end add-column

  // readme:begin replan
  /**
   * Commits {@code plan(table)}, planning again when a concurrent writer collided with it. The
   * commit loop has already rebased and retried everything that commutes; a
   * ConflictingCommitException means the plan itself must change.
   */
  static CommitResult commitWithReplan(Table table, Function<Table, TransactionBuilder> plan) {
    for (int attempt = 1; ; attempt++) {
      try {
        return plan.apply(table).commit();
      } catch (ConflictingCommitException e) {
        if (attempt == 3) {
          throw e;
        }
        System.err.println("version " + e.version() + " (" + e.winnerOperation() + ") collided: "
            + e.collisions() + "; planning again");
      }
    }
  }
  // readme:end replan
}
