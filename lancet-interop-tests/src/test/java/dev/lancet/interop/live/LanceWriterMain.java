package dev.lancet.interop.live;

import dev.lancet.interop.lance.LanceFixtures;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
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
 * <p>It owns the initial rows {@link LiveTable#owner} gives it and every id it appends (from
 * {@link LiveTable#LANCE_APPEND_BASE}), and deletes contested rows that Lancet deletes and
 * updates too; a delete of a contested row someone else already deleted matches nothing. A
 * lance-core error is retried by re-opening the latest version, up to {@link #MAX_ATTEMPTS}
 * times; every error is reported.
 *
 * <p>It is driven over stdin/stdout: it prints {@code @@ READY} once lance-core is loaded, then
 * obeys {@code DELETE k} (deletes row k now and answers {@code @@ DELETE k version uuid}, {@code
 * @@ NOOP k version} or {@code @@ GAVEUP k}) until {@code GO}, which starts its rounds of
 * concurrent appends and deletes; it prints {@code @@ DONE} at the end.
 *
 * <p>Args: table, result file, rounds, seed. The result file has one line per acknowledged
 * operation ({@code APPEND start count version uuid}, {@code DELETE id version uuid}), one per
 * delete that matched nothing and committed nothing ({@code NOOP id version}), one per error
 * ({@code ERROR op class message}) and one per abandoned operation ({@code GAVEUP ...}), then
 * {@code DONE}.
 */
public final class LanceWriterMain {
  static final int MAX_ATTEMPTS = 25;

  private LanceWriterMain() {}

  public static void main(String[] args) throws Exception {
    Path table = Path.of(args[0]);
    Path result = Path.of(args[1]);
    int rounds = Integer.parseInt(args[2]);
    Random random = new Random(Long.parseLong(args[3]));
    String uri = table.toAbsolutePath().toString();

    List<Long> initialOwned = new ArrayList<>(LiveTable.initialIds(LiveTable.Owner.LANCE));
    Collections.shuffle(initialOwned, random);
    List<Long> contested = new ArrayList<>(LiveTable.initialIds(LiveTable.Owner.CONTESTED));
    Collections.shuffle(contested, random);
    List<Long> appendedLive = new ArrayList<>();

    try (PrintStream out = new PrintStream(Files.newOutputStream(result), true, "UTF-8")) {
      // Load the native library and warm up before signalling readiness.
      try (BufferAllocator alloc = new RootAllocator();
          Dataset ds = Dataset.open().allocator(alloc).uri(uri).build()) {
        ds.countRows();
      }
      System.out.println("@@ READY");
      System.out.flush();
      BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
      for (String line = in.readLine(); line != null && !line.equals("GO"); line = in.readLine()) {
        long id = Long.parseLong(line.substring("DELETE ".length()).trim());
        System.out.println("@@ " + delete(out, uri, id));
        System.out.flush();
      }

      long nextAppend = LiveTable.LANCE_APPEND_BASE;
      for (int round = 0; round < rounds; round++) {
        boolean append = round % 3 == 0
            || (initialOwned.isEmpty() && appendedLive.isEmpty() && contested.isEmpty());
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
          // Half the time a contested row (Lancet deletes and updates those too), else its own.
          List<Long> from;
          if (!contested.isEmpty() && random.nextBoolean()) {
            from = contested;
          } else if (appendedLive.isEmpty() || (!initialOwned.isEmpty() && random.nextInt(4) != 0)) {
            from = initialOwned.isEmpty() ? contested : initialOwned;
          } else {
            from = appendedLive;
          }
          delete(out, uri, from.remove(random.nextInt(from.size())));
        }
      }
      out.println("DONE");
    }
    System.out.println("@@ DONE");
    System.out.flush();
  }

  /** Deletes {@code id = k} with retries; records and returns the outcome line. */
  private static String delete(PrintStream out, String uri, long id) throws InterruptedException {
    Optional<String[]> done = withRetries(out, "delete " + id, () -> {
      try (BufferAllocator alloc = new RootAllocator();
          Dataset ds = Dataset.open().allocator(alloc).uri(uri).build()) {
        long before = ds.version();
        ds.delete("id = " + id);
        if (ds.version() == before) {
          return new String[] {"NOOP", String.valueOf(before)};
        }
        Transaction txn = ds.readTransaction().orElseThrow();
        try (txn) {
          return new String[] {"DELETE", String.valueOf(ds.version()), txn.uuid()};
        }
      }
    });
    String line = done.isPresent()
        ? done.get()[0] + " " + id + " " + String.join(" ", List.of(done.get()).subList(1, done.get().length))
        : "GAVEUP delete " + id;
    out.println(line);
    return line;
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
}
