package dev.lancet.interop.badinput;

import dev.lancet.interop.badinput.BadInput.CommandLine;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 10's held-out sweep, through the Java API and through {@code lancet commit}: every bad
 * input of {@link BadInputs} ends in its typed error (or exit code) with a one-line message
 * naming what is wrong, writes nothing (not even a .txn file), and leaves a table that Lancet and
 * lance-core 7.0.0 read as before. Cases that damage the table get a fresh copy each.
 */
class BadInputSweepTest {
  @TempDir static Path tmp;
  static BadInputTable shared;
  static List<BadInput> cases;
  static final Map<String, AtomicInteger> RUNS = new TreeMap<>();

  @BeforeAll
  static void buildTheTable() {
    shared = BadInputTable.create(tmp.resolve("shared"));
    cases = BadInputs.catalog(shared);
  }

  @TestFactory
  Stream<DynamicTest> throughTheJavaApi() {
    return cases.stream().filter(c -> !(c.submission() instanceof CommandLine))
        .map(c -> DynamicTest.dynamicTest(c.toString(), () -> {
          Run run = prepare(c);
          BadInputRunner.throughTheApi(run.table(), c, run.beforeDamage());
          count(c, "api");
        }));
  }

  @TestFactory
  Stream<DynamicTest> throughTheCommandLine() {
    return cases.stream().map(c -> DynamicTest.dynamicTest(c.toString(), () -> {
      Run run = prepare(c);
      BadInputRunner.throughTheCommandLine(run.table(), c, run.beforeDamage(), tmp.resolve("scratch"));
      count(c, "cli");
    }));
  }

  private record Run(BadInputTable table, long beforeDamage) {}

  private static final AtomicInteger COPIES = new AtomicInteger();

  private static Run prepare(BadInput c) throws Exception {
    if (c.damage() == BadInput.Damage.NONE) {
      return new Run(shared, shared.version);
    }
    BadInputTable copy = BadInputTable.create(tmp.resolve("damaged-" + COPIES.incrementAndGet()));
    c.damage().apply(copy);
    return new Run(copy, copy.version);
  }

  private static synchronized void count(BadInput c, String route) {
    RUNS.computeIfAbsent(c.category() + " (" + route + ")", k -> new AtomicInteger()).incrementAndGet();
  }

  @AfterAll
  static void summary() {
    List<String> lines = new ArrayList<>();
    int total = 0;
    for (Map.Entry<String, AtomicInteger> e : RUNS.entrySet()) {
      lines.add(String.format("  %-24s %4d", e.getKey(), e.getValue().get()));
      total += e.getValue().get();
    }
    System.out.println("[bad-input sweep] " + cases.size() + " cases, " + total
        + " runs ended in their error with nothing written:\n" + String.join("\n", lines));
  }
}
