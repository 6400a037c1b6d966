package dev.lancet.interop.live;

import dev.lancet.interop.lance.LanceFixtures;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.lance.Dataset;
import org.lance.Transaction;

/**
 * A real Lance writer in its own JVM: lance-core 7.0.0 appends batches of fresh ids and deletes
 * rows by predicate ({@code id = k}) on the live table while Lancet writes to it too.
 *
 * <p>It owns the even ids of the initial rows and every id it appends (from {@link
 * LiveTable#LANCE_APPEND_BASE}); it never touches another writer's rows, so the final table is
 * predictable from what each writer acknowledges. A lance-core error is retried by re-opening the
 * latest version, up to {@link #MAX_ATTEMPTS} times; every error is reported.
 *
 * <p>Args: table, ready file, go file, result file, rounds, seed. The result file has one line per
 * acknowledged operation ({@code APPEND start count version uuid}, {@code DELETE id version
 * uuid}), one per error ({@code ERROR op class message}) and one per abandoned operation ({@code
 * GAVEUP ...}), then {@code DONE}.
 */
public final class LanceWriterMain {
  static final int MAX_ATTEMPTS = 25;

  private LanceWriterMain() {}

  public static void main(String[] args) throws Exception {
    Path table = Path.of(args[0]);
    Path ready = Path.of(args[1]);
    Path go = Path.of(args[2]);
    Path result = Path.of(args[3]);
    int rounds = Integer.parseInt(args[4]);
    Random random = new Random(Long.parseLong(args[5]));
    String uri = table.toAbsolutePath().toString();

    List<Long> initialOwned = new ArrayList<>();
    for (long id = 0; id < LiveTable.INITIAL_ROWS; id += 2) {
      initialOwned.add(id);
    }
    Collections.shuffle(initialOwned, random);
    List<Long> appendedLive = new ArrayList<>();

    try (PrintStream out = new PrintStream(Files.newOutputStream(result), true, "UTF-8")) {
      // Load the native library and warm up before signalling readiness.
      try (BufferAllocator alloc = new RootAllocator();
          Dataset ds = Dataset.open().allocator(alloc).uri(uri).build()) {
        ds.countRows();
      }
      Files.createFile(ready);
      awaitGo(go);

      long nextAppend = LiveTable.LANCE_APPEND_BASE;
      for (int round = 0; round < rounds; round++) {
        boolean append = round % 3 == 0 || (initialOwned.isEmpty() && appendedLive.isEmpty());
        if (append) {
          long start = nextAppend;
          nextAppend += LiveTable.BATCH;
          Optional<String[]> done = withRetries(out, "append " + start, () -> {
            long version = LanceFixtures.append(table, LanceFixtures.SIMPLE_SCHEMA, start, LiveTable.BATCH);
            return new String[] {String.valueOf(version), uuidOf(uri, version)};
          });
          if (done.isPresent()) {
            out.println("APPEND " + start + " " + LiveTable.BATCH + " " + done.get()[0] + " " + done.get()[1]);
            for (long id = start; id < start + LiveTable.BATCH; id++) {
              appendedLive.add(id);
            }
          } else {
            out.println("GAVEUP append " + start);
          }
        } else {
          // Mostly the shared initial fragments (contended with Lancet), sometimes its own rows.
          List<Long> from = appendedLive.isEmpty() || (!initialOwned.isEmpty() && random.nextInt(4) != 0)
              ? initialOwned : appendedLive;
          long id = from.remove(random.nextInt(from.size()));
          Optional<String[]> done = withRetries(out, "delete " + id, () -> {
            try (BufferAllocator alloc = new RootAllocator();
                Dataset ds = Dataset.open().allocator(alloc).uri(uri).build()) {
              ds.delete("id = " + id);
              Transaction txn = ds.readTransaction().orElseThrow();
              try (txn) {
                return new String[] {String.valueOf(ds.version()), txn.uuid()};
              }
            }
          });
          if (done.isPresent()) {
            out.println("DELETE " + id + " " + done.get()[0] + " " + done.get()[1]);
          } else {
            out.println("GAVEUP delete " + id);
          }
        }
      }
      out.println("DONE");
    }
  }

  private interface Attempt {
    String[] run() throws Exception;
  }

  /** Runs {@code attempt} until it succeeds, reporting every error lance-core raises. */
  private static Optional<String[]> withRetries(PrintStream out, String what, Attempt attempt)
      throws InterruptedException {
    for (int i = 1; i <= MAX_ATTEMPTS; i++) {
      try {
        return Optional.of(attempt.run());
      } catch (Exception e) {
        String message = String.valueOf(e.getMessage()).replace('\n', ' ');
        out.println("ERROR " + what + " " + e.getClass().getName() + " "
            + message.substring(0, Math.min(message.length(), 300)));
        Thread.sleep(5L * i);
      }
    }
    return Optional.empty();
  }

  /** The uuid of the transaction that produced {@code version}. */
  private static String uuidOf(String uri, long version) {
    return LiveTable.lanceTransactionUuid(uri, version);
  }

  private static void awaitGo(Path go) throws IOException, InterruptedException {
    long deadline = System.nanoTime() + 60_000_000_000L;
    while (!Files.exists(go)) {
      if (System.nanoTime() > deadline) {
        throw new IOException("no go signal within 60 s");
      }
      Thread.sleep(1);
    }
  }
}
