package dev.lancet.interop.branch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancet.interop.lance.LanceFixtures;
import dev.lancet.table.CreateOptions;
import dev.lancet.table.LanceTable;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.LongStream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lance.Ref;

/**
 * Commits to a branch and to main at the same time, from real threads: Lancet appends and deletes
 * on main, Lancet appends and deletes on the branch, lance-core 7.0.0 appends to the branch. Each
 * branch has its own version sequence and its own commit race; the final state of each is checked
 * against a model of what every writer did (every append present once, every delete applied,
 * nothing of one branch in the other), by Lancet and by lance-core, and every version of every
 * branch reads the same in both.
 */
class BranchConcurrencyInteropTest {
  private static final int OPS = 10;

  @TempDir Path tmp;

  @Test
  void commitsToABranchAndToMainRaceWithoutLosingAWrite() throws Exception {
    Path dir = tmp.resolve("t");
    try (BufferAllocator alloc = new RootAllocator();
        var first = LanceBranches.lancetRows(alloc, 0, 100);
        LanceTable t = LanceTable.create(dir.toString(), first, CreateOptions.defaults())) {
      try (var more = LanceBranches.lancetRows(alloc, 100, 100)) {
        t.append(more);
      }
      t.branches().create("b", 2);
    }
    CountDownLatch start = new CountDownLatch(1);
    List<Callable<Void>> writers = new ArrayList<>();
    AtomicInteger attempts = new AtomicInteger();
    writers.add(lancet(dir, "main", start, (tb, alloc, k) ->
        attempts.addAndGet(append(tb, alloc, 10_000 + k * 10L))));
    writers.add(lancet(dir, "main", start, (tb, alloc, k) ->
        attempts.addAndGet(tb.delete("id = " + (100 + k)).attempts().size())));
    writers.add(lancet(dir, "b", start, (tb, alloc, k) ->
        attempts.addAndGet(append(tb, alloc, 20_000 + k * 10L))));
    writers.add(lancet(dir, "b", start, (tb, alloc, k) ->
        attempts.addAndGet(tb.delete("id = " + k).attempts().size())));
    writers.add(() -> {
      start.await();
      for (int k = 0; k < OPS; k++) {
        LanceBranches.appendToBranch(dir, "b", LanceFixtures.SIMPLE_SCHEMA, 30_000 + k * 10L, 10);
      }
      return null;
    });
    ExecutorService pool = Executors.newFixedThreadPool(writers.size());
    try {
      List<Future<Void>> done = new ArrayList<>();
      for (Callable<Void> w : writers) {
        done.add(pool.submit(w));
      }
      start.countDown();
      for (Future<Void> f : done) {
        f.get(5, TimeUnit.MINUTES);
      }
    } finally {
      pool.shutdownNow();
    }

    // How much the writers raced (a figure, not a condition: the interleaving is the threads').
    System.out.println("Lancet commit attempts for " + 4 * OPS + " commits: " + attempts.get());
    Set<Long> main = new TreeSet<>(range(0, 200));
    Set<Long> branch = new TreeSet<>(range(0, 200));
    for (int k = 0; k < OPS; k++) {
      main.addAll(range(10_000 + k * 10L, 10_010 + k * 10L));
      main.remove(100L + k);
      branch.addAll(range(20_000 + k * 10L, 20_010 + k * 10L));
      branch.addAll(range(30_000 + k * 10L, 30_010 + k * 10L));
      branch.remove((long) k);
    }
    assertThat(new TreeSet<>(LanceBranches.ids(dir, Ref.ofMain()))).isEqualTo(main);
    assertThat(new TreeSet<>(LanceBranches.ids(dir, Ref.ofBranch("b")))).isEqualTo(branch);
    try (LanceTable t = LanceTable.open(dir.toString())) {
      assertThat(t.version()).isEqualTo(2 + 2 * OPS);
      assertThat(t.branch("b").version()).as("b's own sequence, from 2").isEqualTo(2 + 3 * OPS);
    }
    LanceBranches.assertSameEverywhere(dir);
  }

  /** One Lancet writer: {@code OPS} statements on {@code branch}, after {@code start}. */
  private static Callable<Void> lancet(Path dir, String branch, CountDownLatch start, Op op) {
    return () -> {
      try (BufferAllocator alloc = new RootAllocator();
          LanceTable t = LanceTable.open(dir.toString(), java.util.Map.of(), branch)) {
        start.await();
        for (int k = 0; k < OPS; k++) {
          op.run(t, alloc, k);
        }
      }
      return null;
    };
  }

  private interface Op {
    void run(LanceTable t, BufferAllocator alloc, int k) throws Exception;
  }

  private static int append(LanceTable t, BufferAllocator alloc, long from) throws Exception {
    try (var rows = LanceBranches.lancetRows(alloc, from, 10)) {
      return t.append(rows).attempts();
    }
  }

  private static List<Long> range(long from, long to) {
    return LongStream.range(from, to).boxed().toList();
  }
}
