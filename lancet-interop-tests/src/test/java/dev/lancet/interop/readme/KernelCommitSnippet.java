package dev.lancet.interop.readme;

import dev.lancet.core.Table;
import dev.lancet.core.action.Ref;
import dev.lancet.core.commit.CommitResult;
import dev.lancet.datafile.lance.LanceDataFiles;
import dev.lancet.format.model.DataFile;
import dev.lancet.format.model.Field;
import java.nio.file.Path;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * README snippet "kernel-commit": a Transaction V2 through the kernel, adding column
 * {@code score} to fragment 0 and recording the load, as one atomic version.
 */
final class KernelCommitSnippet {
  private KernelCommitSnippet() {}

  static long run(Path tableDir, VectorSchemaRoot scores) {
    // README:begin
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
    // README:end
  }
}
