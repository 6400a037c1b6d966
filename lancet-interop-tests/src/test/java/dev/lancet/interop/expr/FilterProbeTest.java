package dev.lancet.interop.expr;

import dev.lancet.demo.LanceReads;
import java.io.FileWriter;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import org.apache.arrow.vector.BigIntVector;
import org.lance.ipc.ScanOptions;

class FilterProbeTest {
  public static void main(String[] args) throws Exception {
    Path dir = Path.of("/tmp/probe/table");
    if (!Files.exists(dir)) {
      FilterTable.write(dir);
    }
    List<String> preds = Files.readAllLines(Path.of(args[0]));
    int skip = args.length > 1 ? Integer.parseInt(args[1]) : 0;
    try (PrintWriter out = new PrintWriter(new FileWriter(args[0] + ".out", skip > 0))) {
      LanceReads.withDataset(dir, java.util.Optional.empty(), ds -> {
        if (skip == 0) {
          out.println("SCHEMA " + ds.getSchema());
          LanceReads.scanBatches(ds, new ScanOptions.Builder().batchSize(100000).build(),
              root -> out.println("BATCH " + root.getSchema()));
        }
        for (int k = skip; k < preds.size(); k++) {
          String p = preds.get(k);
          if (p.isBlank()) continue;
          out.print("[" + k + "] ");
          out.flush();
          try {
            TreeSet<Long> ids = new TreeSet<>();
            LanceReads.scanBatches(ds, new ScanOptions.Builder().columns(List.of("id")).filter(p)
                .batchSize(100000).build(), root -> {
                  BigIntVector id = (BigIntVector) root.getVector("id");
                  for (int i = 0; i < root.getRowCount(); i++) ids.add(id.get(i));
                });
            List<Long> first = new ArrayList<>(ids).subList(0, Math.min(12, ids.size()));
            out.println("OK   " + p + "  => " + ids.size() + " " + first);
          } catch (Throwable e) {
            Throwable c = e;
            while (c.getCause() != null) c = c.getCause();
            out.println("ERR  " + p + "  => " + String.valueOf(c.getMessage()).replace('\n', ' '));
          }
          out.flush();
        }
        return null;
      });
    }
  }
}
