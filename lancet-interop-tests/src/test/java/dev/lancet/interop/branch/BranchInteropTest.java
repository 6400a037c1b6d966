package dev.lancet.interop.branch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lancet.interop.lance.LanceFixtures;
import dev.lancet.table.AlreadyExistsException;
import dev.lancet.table.BranchInfo;
import dev.lancet.table.CleanupReport;
import dev.lancet.table.CreateOptions;
import dev.lancet.table.HistoryEntry;
import dev.lancet.table.InvalidInputException;
import dev.lancet.table.LanceTable;
import dev.lancet.table.LanceTableException;
import dev.lancet.table.NotFoundException;
import dev.lancet.table.TagInfo;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.LongStream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lance.Ref;

/**
 * Branches both ways with lance-core 7.0.0 (docs/decisions/0027): lance-core reads every version of
 * every branch Lancet creates and commits to, Lancet every version of every branch lance-core
 * makes, row for row (ids, names, row addresses), and each commits onto the other's branches.
 */
class BranchInteropTest {
  @TempDir Path tmp;

  private static List<Long> ids(long from, long to) {
    return LongStream.range(from, to).boxed().toList();
  }

  @Test
  void lanceCoreReadsEveryVersionOfTheBranchesLancetCreatesAndCommitsTo() throws Exception {
    Path dir = tmp.resolve("t");
    try (BufferAllocator alloc = new RootAllocator();
        var first = LanceBranches.lancetRows(alloc, 0, 100);
        LanceTable t = LanceTable.create(dir.toString(), first, CreateOptions.defaults())) {
      append(t, alloc, 100, 100); // v2
      append(t, alloc, 200, 100); // v3
      BranchInfo dev = t.branches().create("dev", 2);
      assertThat(dev.parentBranch()).isEmpty();
      assertThat(dev.parentVersion()).isEqualTo(2);
      LanceTable d = t.branch("dev");
      assertThat(d.version()).isEqualTo(2);
      assertThat(d.branchName()).contains("dev");
      assertThat(append(d, alloc, 1000, 50).version()).isEqualTo(3);
      assertThat(d.delete("id < 10").version()).hasValue(4); // an inherited fragment
      d.tags().create("dev-4", 4);
      assertThat(d.update("id = 1020", Map.of("name", "'changed'")).version()).hasValue(5);
      assertThat(d.compact().commit().version()).hasValue(6);
      assertThat(t.version()).as("main is untouched").isEqualTo(3);
      append(t, alloc, 300, 10); // main v4

      t.branches().createFromTag("dev/sub", "dev-4");
      LanceTable sub = t.branch("dev/sub");
      assertThat(sub.version()).isEqualTo(4);
      assertThat(sub.delete("id >= 1040").version()).hasValue(5);

      assertThat(t.branches().list()).extracting(BranchInfo::name).containsExactly("dev", "dev/sub");
      assertThat(t.branches().get("dev/sub").orElseThrow().parentBranch()).contains("dev");
      assertThat(t.tags().list()).containsExactly(new TagInfo("dev-4", 4, Optional.of("dev")));
      assertThat(d.history()).extracting(HistoryEntry::version).containsExactly(2L, 3L, 4L, 5L, 6L);
      assertThat(d.history().get(2).tags()).containsExactly("dev-4");
      assertThat(t.history().get(3).tags()).as("main's version 4 is not tagged").isEmpty();
      assertThat(Rows.idsOf(t.newScan().asOfTag("dev-4").select("id").open()))
          .isEqualTo(concat(ids(10, 200), ids(1000, 1050)));

      assertThatThrownBy(() -> t.branches().create("dev", 1))
          .isInstanceOf(AlreadyExistsException.class);
      assertThatThrownBy(() -> t.branches().create("main", 1))
          .isInstanceOf(InvalidInputException.class);
      assertThatThrownBy(() -> t.branches().create("x", 99)).isInstanceOf(NotFoundException.class);
      assertThatThrownBy(() -> t.branch("nope")).isInstanceOf(NotFoundException.class)
          .hasMessageContaining("dev, dev/sub");
      assertThatThrownBy(() -> t.branches().delete("dev")).isInstanceOf(LanceTableException.class)
          .hasMessageContaining("dev/sub");
    }
    // Every version of every branch and every tag, lance-core against Lancet, row for row.
    Map<String, List<Long>> all = LanceBranches.everything(dir);
    assertThat(all).containsKeys("main@4", "dev@2", "dev@6", "dev/sub@4", "dev/sub@5", "tag:dev-4");
    assertThat(all.get("dev@6")).isEqualTo(concat(ids(10, 200), ids(1000, 1050)));
    assertThat(all.get("dev/sub@5")).isEqualTo(concat(ids(10, 200), ids(1000, 1040)));
    assertThat(all.get("main@4")).isEqualTo(ids(0, 310));
    LanceBranches.assertSameEverywhere(dir);
    assertThat(LanceBranches.lanceScan(dir, "dev@5")).filteredOn(r -> r.get("id").equals(1020L))
        .extracting(r -> r.get("name")).containsExactly("changed");
  }

  @Test
  void lancetReadsAndCommitsToTheBranchesLanceCoreCreates() throws Exception {
    Path dir = BranchCleanupInteropTest.table(tmp);
    LanceBranches.assertSameEverywhere(dir);
    try (BufferAllocator alloc = new RootAllocator();
        LanceTable t = LanceTable.open(dir.toString())) {
      assertThat(t.branches().list()).extracting(BranchInfo::name)
          .containsExactly("b2", "feat/x", "feat/x/deeper");
      LanceTable fx = t.branch("feat/x");
      assertThat(fx.version()).isEqualTo(5);
      assertThat(append(fx, alloc, 500, 5).version()).isEqualTo(6);
      assertThat(fx.delete("id = 2").version()).hasValue(7);
      fx.tags().create("fx-7", 7);
    }
    // lance-core goes on from Lancet's commits on its branch.
    assertThat(LanceBranches.appendToBranch(dir, "feat/x", LanceFixtures.SIMPLE_SCHEMA, 600, 5))
        .isEqualTo(8);
    List<Long> expected = concat(concat(concat(List.of(0L), ids(3, 20)), ids(100, 105)),
        concat(ids(500, 505), ids(600, 605)));
    assertThat(LanceBranches.ids(dir, Ref.ofBranch("feat/x", 8))).isEqualTo(expected);
    LanceBranches.assertSameEverywhere(dir);
  }

  @Test
  void cleanupOfABranchKeepsItsTaggedVersionsItsChildrensStartAndItsParentsFiles() throws Exception {
    Path dir = tmp.resolve("t");
    try (BufferAllocator alloc = new RootAllocator();
        var first = LanceBranches.lancetRows(alloc, 0, 100);
        LanceTable t = LanceTable.create(dir.toString(), first, CreateOptions.defaults())) {
      t.branches().create("b", 1);
      LanceTable b = t.branch("b");
      for (int i = 0; i < 4; i++) {
        append(b, alloc, 1000 + i * 10L, 10); // b v2..v5
      }
      b.tags().create("b-3", 3);
      b.branches().create("b/child", 4);
      b.delete("id < 50"); // b v6: main's fragment is half deleted on b
      b.compact().commit(); // b v7: rewrites into b's own data/
      Files.write(dir.resolve("tree/b/data/orphan.lance"), new byte[] {1});
      CleanupReport r = b.cleanup().olderThan(Duration.ZERO).commit();
      assertThat(r.versionsRemoved()).containsExactly(1L, 2L, 5L, 6L);
      assertThat(r.kept()).contains("version 3 (tag b-3)", "version 4 (branch b/child starts here)");
      assertThat(r.filesRemoved()).contains("tree/b/data/orphan.lance")
          .allMatch(p -> p.startsWith("tree/b/") && !p.startsWith("tree/b/child/"));
      CleanupReport main = t.cleanup().olderThan(Duration.ZERO).dryRun();
      assertThat(main.versionsRemoved()).isEmpty();
      assertThat(main.kept()).isEmpty();
    }
    Map<String, List<Long>> all = LanceBranches.everything(dir);
    assertThat(all.keySet()).containsExactly("b/child@4", "b@3", "b@4", "b@7", "main@1", "tag:b-3");
    LanceBranches.assertSameEverywhere(dir);
  }

  @Test
  void ofTwoCreatorsOfOneBranchExactlyOneWins() throws Exception {
    Path dir = tmp.resolve("t");
    try (BufferAllocator alloc = new RootAllocator();
        var first = LanceBranches.lancetRows(alloc, 0, 10);
        LanceTable t = LanceTable.create(dir.toString(), first, CreateOptions.defaults())) {
      append(t, alloc, 10, 10);
    }
    for (int round = 0; round < 5; round++) {
      String name = "race-" + round;
      java.util.concurrent.CountDownLatch go = new java.util.concurrent.CountDownLatch(1);
      java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(2);
      List<java.util.concurrent.Future<String>> outcomes = new java.util.ArrayList<>();
      for (long from : new long[] {1, 2}) {
        outcomes.add(pool.submit(() -> {
          try (LanceTable t = LanceTable.open(dir.toString())) {
            go.await();
            return "created from " + t.branches().create(name, from).parentVersion();
          } catch (AlreadyExistsException e) {
            return "lost";
          }
        }));
      }
      go.countDown();
      List<String> results = new java.util.ArrayList<>();
      for (var f : outcomes) {
        results.add(f.get(1, java.util.concurrent.TimeUnit.MINUTES));
      }
      pool.shutdown();
      assertThat(results).as("round %d", round).containsOnlyOnce("lost").hasSize(2);
      long from = Long.parseLong(results.stream().filter(r -> !r.equals("lost")).findFirst()
          .orElseThrow().substring("created from ".length()));
      try (LanceTable t = LanceTable.open(dir.toString())) {
        assertThat(t.branch(name).version()).isEqualTo(from);
        assertThat(t.branches().get(name).orElseThrow().parentVersion()).isEqualTo(from);
      }
      assertThat(LanceBranches.ids(dir, Ref.ofBranch(name, from))).isEqualTo(ids(0, from * 10));
    }
  }

  /** Appends rows {@code start ..} through {@code t}, closing the rows. */
  private static dev.lancet.table.CommitInfo append(LanceTable t, BufferAllocator alloc,
      long start, int count) {
    try (var rows = LanceBranches.lancetRows(alloc, start, count)) {
      return t.append(rows);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static List<Long> concat(List<Long> a, List<Long> b) {
    List<Long> out = new java.util.ArrayList<>(a);
    out.addAll(b);
    out.sort(null);
    return out;
  }

  /** Sorted ids of a Lancet read. */
  private static final class Rows {
    static List<Long> idsOf(org.apache.arrow.vector.ipc.ArrowReader r) {
      return dev.lancet.interop.table.Rows.of(r).stream().map(m -> (Long) m.get("id")).sorted()
          .toList();
    }
  }
}
