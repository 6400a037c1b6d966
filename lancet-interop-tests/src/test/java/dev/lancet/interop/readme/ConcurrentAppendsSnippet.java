package dev.lancet.interop.readme;

import dev.lancet.table.CommitInfo;
import dev.lancet.table.LanceTable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.ipc.ArrowFileReader;

/** README snippet "concurrent-appends": four writers append at once; every append lands. */
final class ConcurrentAppendsSnippet {
  private ConcurrentAppendsSnippet() {}

  static List<Long> run(String uri, List<String> arrowFiles) throws Exception {
    // README:begin
    ExecutorService writers = Executors.newFixedThreadPool(arrowFiles.size());
    List<Future<CommitInfo>> commits = new ArrayList<>();
    for (String file : arrowFiles) {
      commits.add(writers.submit(() -> {
        try (BufferAllocator allocator = new RootAllocator();
            ArrowFileReader rows = new ArrowFileReader(Files.newByteChannel(Path.of(file)), allocator);
            LanceTable table = LanceTable.open(uri)) {
          return table.newAppend().from(rows)
              .onAttempt(a -> System.out.println(file + ": " + a.outcome() + " " + a.version()))
              .commit();   // rebased and retried when another append wins the race
        }
      }));
    }
    for (Future<CommitInfo> c : commits) {
      System.out.println("committed version " + c.get().version());
    }
    writers.shutdown();
    // README:end
    List<Long> versions = new ArrayList<>();
    for (Future<CommitInfo> c : commits) {
      versions.add(c.get().version());
    }
    return versions;
  }
}
