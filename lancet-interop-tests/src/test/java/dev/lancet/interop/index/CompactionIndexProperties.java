package dev.lancet.interop.index;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancet.core.Table;
import dev.lancet.core.transaction.WriteForm;
import dev.lancet.format.pb.TransactionProtos.Transaction.OperationCase;
import dev.lancet.interop.index.IndexedTables.Coverage;
import dev.lancet.interop.index.IndexedTables.Kind;
import dev.lancet.table.CompactionResult;
import dev.lancet.table.IndexCoverage;
import dev.lancet.table.LanceTable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Builders;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.lance.ipc.LanceScanner;
import org.lance.ipc.ScanOptions;

/**
 * Generated fragment layouts (docs/decisions/0026): fragments written before a scalar index
 * lance-core builds, before a second one, and after both, of random sizes; random deletes (a
 * sparse pattern and a dense range, so some fragments are compacted to drop deletions) and an
 * update; a random target; with or without stable row ids, either write form, and losing
 * coverage allowed or not. Lancet compacts the table, lance-core compacts a byte copy, and:
 *
 * <ul>
 *   <li>with stable row ids, or when losing coverage is allowed, Lancet writes the fragments
 *       lance-core writes (the rows of each, by id); without stable row ids and without the
 *       permission, the fragments lance-core rewrote that an index covered are untouched and the
 *       rest is as lance-core wrote it;
 *   <li>each index reports the fragments of its coverage lance-core rewrote: kept (stable row
 *       ids), skipped or lost; lance-core's {@code describeIndices} shows, with stable row ids,
 *       its own coverage, and otherwise the coverage as it was;
 *   <li>lance-core's filters through the indexes answer as brute force does (where they did
 *       before);
 *   <li>the default write form wrote a legacy Rewrite, the composite one a composite.
 * </ul>
 */
class CompactionIndexProperties {
  private static Path root;
  private static final AtomicInteger RUNS = new AtomicInteger();
  private static final Map<String, AtomicInteger> SEEN = new TreeMap<>();

  @BeforeContainer
  static void makeRoot() throws IOException {
    root = Files.createTempDirectory("lancet-compaction-index");
  }

  @AfterContainer
  static void summary() throws IOException {
    System.out.println("[compaction-index properties] " + RUNS.get() + " layouts; outcomes seen "
        + SEEN);
    // Every outcome a generated layout can reach was reached (each property forces its own).
    assertThat(SEEN.keySet()).contains("KEPT", "SKIPPED", "LOST");
    try (var files = Files.walk(root)) {
      files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
  }

  /** One generated table and compaction. */
  record Layout(boolean stable, boolean composite, Kind first, List<Integer> covered,
      List<Integer> coveredBySecond, boolean second, List<Integer> uncovered, int deleteEvery,
      int denseStart, int denseLength, int updateEvery, long target, boolean allowLoss) {}

  @Provide
  Arbitrary<Layout> stableRowIds() {
    return layouts(Arbitraries.just(true), Arbitraries.of(true, false));
  }

  @Provide
  Arbitrary<Layout> noStableRowIds() {
    return layouts(Arbitraries.just(false), Arbitraries.just(false));
  }

  @Provide
  Arbitrary<Layout> noStableRowIdsLossAllowed() {
    return layouts(Arbitraries.just(false), Arbitraries.just(true));
  }

  /**
   * Layouts whose first two fragments are both smaller than the target, covered by the same
   * indexes and never emptied by the deletes, so lance-core's compaction rewrites covered
   * fragments in every one (each property reaches its outcome every time).
   */
  private static Arbitrary<Layout> layouts(Arbitrary<Boolean> stable, Arbitrary<Boolean> loss) {
    net.jqwik.api.arbitraries.ListArbitrary<Integer> sizes =
        Arbitraries.integers().between(10, 200).list();
    Arbitrary<Layout> drawn = Builders.withBuilder(() -> new Object[13])
        .use(stable).in((b, v) -> set(b, 0, v))
        .use(Arbitraries.of(true, false)).in((b, v) -> set(b, 1, v))
        .use(Arbitraries.of(Kind.BTREE, Kind.BITMAP)).in((b, v) -> set(b, 2, v))
        .use(sizes.ofMinSize(2).ofMaxSize(4)).in((b, v) -> set(b, 3, v))
        .use(sizes.ofMinSize(0).ofMaxSize(3)).in((b, v) -> set(b, 4, v))
        .use(Arbitraries.of(true, false)).in((b, v) -> set(b, 5, v))
        .use(sizes.ofMinSize(0).ofMaxSize(3)).in((b, v) -> set(b, 6, v))
        .use(Arbitraries.of(0, 7, 13, 29)).in((b, v) -> set(b, 7, v))
        .use(Arbitraries.integers().between(0, 400)).in((b, v) -> set(b, 8, v))
        .use(Arbitraries.integers().between(0, 150)).in((b, v) -> set(b, 9, v))
        .use(Arbitraries.of(0, 31, 47)).in((b, v) -> set(b, 10, v))
        .use(Arbitraries.longs().between(1, 320)).in((b, v) -> set(b, 11, v))
        .use(loss).in((b, v) -> set(b, 12, v))
        .build(b -> {
          List<Integer> covered = ints(b[3]);
          int firstTwo = covered.get(0) + covered.get(1);
          long target = Math.max(covered.get(0), covered.get(1)) + (Long) b[11];
          return new Layout((Boolean) b[0], (Boolean) b[1], (Kind) b[2], covered, ints(b[4]),
              (Boolean) b[5], ints(b[6]), (Integer) b[7], firstTwo + (Integer) b[8],
              (Integer) b[9], (Integer) b[10], target, (Boolean) b[12]);
        });
    return drawn;
  }

  private static Object[] set(Object[] b, int i, Object v) {
    b[i] = v;
    return b;
  }

  @SuppressWarnings("unchecked")
  private static List<Integer> ints(Object o) {
    return (List<Integer>) o;
  }

  @Property(tries = 8)
  void withStableRowIdsIndexesFollowTheirRows(@ForAll("stableRowIds") Layout l)
      throws IOException {
    check(l);
  }

  @Property(tries = 8)
  void withoutStableRowIdsCoveredFragmentsAreSkipped(@ForAll("noStableRowIds") Layout l)
      throws IOException {
    check(l);
  }

  @Property(tries = 8)
  void withoutStableRowIdsCoverageIsLostOnlyWhenAllowed(
      @ForAll("noStableRowIdsLossAllowed") Layout l) throws IOException {
    check(l);
  }

  private static void check(Layout l) throws IOException {
    Path ours = Files.createTempDirectory(root, "ours");
    Files.delete(ours);
    build(ours, l);
    Map<Integer, List<Long>> before = rowsByFragment(ours);
    Map<String, Coverage> coverageBefore = IndexedTables.coverage(ours);
    Map<String, List<Long>[]> answersBefore = answers(ours, coverageBefore.keySet());
    long version = IndexedTables.lance(ours, ds -> ds.version());
    Path theirs = IndexedTables.copy(ours, root.resolve(ours.getFileName() + "-lance"));
    IndexedTables.lance(theirs, ds -> {
      ds.compact(org.lance.compaction.CompactionOptions.builder()
          .withTargetRowsPerFragment(l.target()).build());
      return null;
    });
    Map<Integer, List<Long>> lance = rowsByFragment(theirs);

    CompactionResult r;
    try (LanceTable t = LanceTable.open(ours.toString())) {
      r = t.compact().targetRowsPerFragment(l.target()).allowIndexCoverageLoss(l.allowLoss())
          .commit();
    }
    RUNS.incrementAndGet();
    r.indexCoverage().forEach(c -> SEEN.computeIfAbsent(c.outcome().name(),
        k -> new AtomicInteger()).incrementAndGet());
    if (!r.committed()) {
      SEEN.computeIfAbsent("nothing committed", k -> new AtomicInteger()).incrementAndGet();
    }

    // The fragments lance-core rewrote, and those of them each index covers.
    Set<Integer> rewritten = new TreeSet<>(before.keySet());
    rewritten.removeAll(lance.keySet());
    Map<String, Set<Integer>> affected = new TreeMap<>();
    Set<Integer> coveredAndRewritten = new TreeSet<>();
    coverageBefore.forEach((name, c) -> {
      Set<Integer> a = new TreeSet<>(c.fragments());
      a.retainAll(rewritten);
      if (!a.isEmpty()) {
        affected.put(name, a);
        coveredAndRewritten.addAll(a);
      }
    });
    boolean follows = l.stable();
    boolean skips = !l.stable() && !l.allowLoss();
    assertThat(affected).as("covered fragments lance-core rewrote").isNotEmpty();

    Map<Integer, List<Long>> now = rowsByFragment(ours);
    if (skips) {
      Set<List<Long>> expected = new HashSet<>();
      coveredAndRewritten.forEach(f -> expected.add(before.get(f)));
      Set<Long> held = new HashSet<>();
      coveredAndRewritten.forEach(f -> held.addAll(before.get(f)));
      lance.values().stream().filter(rows -> rows.stream().noneMatch(held::contains))
          .forEach(expected::add);
      assertThat(new HashSet<>(now.values())).as("covered fragments kept, the rest as "
          + "lance-core compacted it").isEqualTo(expected);
      for (int f : coveredAndRewritten) {
        assertThat(now.get(f)).as("fragment %s", f).isEqualTo(before.get(f));
      }
      assertThat(r.fragmentsSkipped()).isEqualTo(coveredAndRewritten.size());
    } else {
      assertThat(now).as("the fragments lance-core writes").isEqualTo(lance);
      assertThat(r.fragmentsSkipped()).isZero();
    }
    Map<String, String> expectedOutcomes = new TreeMap<>();
    affected.forEach((name, a) -> expectedOutcomes.put(name,
        (follows ? "KEPT" : skips ? "SKIPPED" : "LOST") + " " + a.size()));
    assertThat(outcomes(r)).isEqualTo(expectedOutcomes);

    Map<String, Coverage> coverage = IndexedTables.coverage(ours);
    if (follows) {
      assertThat(coverage).as("coverage as after lance-core's compaction")
          .isEqualTo(IndexedTables.coverage(theirs));
    } else {
      assertThat(coverage).as("coverage as it was").isEqualTo(coverageBefore);
    }

    if (r.committed()) {
      try (Table kernel = Table.open(ours.toString())) {
        OperationCase written = kernel.latest().transaction().orElseThrow().getOperationCase();
        assertThat(kernel.latest().version()).isEqualTo(version + 1);
        assertThat(written).as("the write form").isEqualTo(l.composite()
            ? OperationCase.COMPOSITE_OPERATION : OperationCase.REWRITE);
      }
    }
    Map<String, List<Long>[]> answersAfter = answers(ours, coverage.keySet());
    answersBefore.forEach((q, was) -> {
      List<Long>[] after = answersAfter.get(q);
      assertThat(after[1]).as("%s by brute force", q).isEqualTo(was[1]);
      if (was[0].equals(was[1])) {
        assertThat(after[0]).as("%s through the index", q).isEqualTo(after[1]);
      }
    });
  }

  private static void build(Path dir, Layout l) {
    List<Integer> all = new ArrayList<>(l.covered());
    all.addAll(l.coveredBySecond());
    all.addAll(l.uncovered());
    IndexedTables.create(dir, l.stable(), l.covered().get(0), l.covered().get(0));
    if (l.composite()) {
      try (LanceTable t = LanceTable.open(dir.toString())) {
        t.newTransaction().setConfig(WriteForm.CONFIG_KEY, WriteForm.COMPOSITE.configValue())
            .commit();
      }
    }
    long next = l.covered().get(0);
    for (int i = 1; i < all.size(); i++) {
      if (i == l.covered().size()) {
        IndexedTables.buildIndex(dir, "first_idx", l.first());
      }
      if (i == l.covered().size() + l.coveredBySecond().size() && l.second()) {
        IndexedTables.buildIndex(dir, "second_idx", other(l.first()));
      }
      IndexedTables.append(dir, next, all.get(i));
      next += all.get(i);
    }
    if (all.size() == l.covered().size()) {
      IndexedTables.buildIndex(dir, "first_idx", l.first());
    }
    if (all.size() == l.covered().size() + l.coveredBySecond().size() && l.second()) {
      IndexedTables.buildIndex(dir, "second_idx", other(l.first()));
    }
    try (LanceTable t = LanceTable.open(dir.toString())) {
      List<String> deletes = new ArrayList<>();
      if (l.deleteEvery() > 0) {
        deletes.add("id % " + l.deleteEvery() + " = 1");
      }
      if (l.denseLength() > 0) {
        deletes.add("(id >= " + l.denseStart() + " AND id < " + (l.denseStart() + l.denseLength())
            + ")");
      }
      if (!deletes.isEmpty()) {
        t.delete(String.join(" OR ", deletes));
      }
      if (l.updateEvery() > 0) {
        t.update("id % " + l.updateEvery() + " = 2", Map.of("cat", "'zz'"));
      }
    }
  }

  private static Kind other(Kind k) {
    return k == Kind.BTREE ? Kind.BITMAP : Kind.BTREE;
  }

  /** Each fragment's row ids ({@code id} column), in row order, as lance-core reads them. */
  @SuppressWarnings("try")
  private static Map<Integer, List<Long>> rowsByFragment(Path dir) {
    return IndexedTables.lance(dir, ds -> {
      Map<Integer, List<Long>> out = new TreeMap<>();
      for (org.lance.Fragment f : ds.getFragments()) {
        List<Long> ids = new ArrayList<>();
        try (LanceScanner s = ds.newScan(new ScanOptions.Builder().fragmentIds(List.of(f.getId()))
            .columns(List.of("id")).build()); ArrowReader reader = s.scanBatches()) {
          while (reader.loadNextBatch()) {
            BigIntVector v = (BigIntVector) reader.getVectorSchemaRoot().getVector("id");
            for (int i = 0; i < v.getValueCount(); i++) {
              ids.add(v.get(i));
            }
          }
        } catch (Exception e) {
          throw new IllegalStateException(e);
        }
        out.put(f.getId(), ids);
      }
      return out;
    });
  }

  private static Map<String, String> outcomes(CompactionResult r) {
    Map<String, String> out = new TreeMap<>();
    for (IndexCoverage c : r.indexCoverage()) {
      out.merge(c.index(), c.outcome() + " " + c.fragments(), (a, b) -> a + ", " + b);
    }
    return out;
  }

  /** For each query an index may serve: {through the index, by brute force}. */
  @SuppressWarnings("unchecked")
  private static Map<String, List<Long>[]> answers(Path dir, Set<String> indexes) {
    Map<String, List<Long>[]> out = new LinkedHashMap<>();
    for (String f : List.of("id >= 40 AND id < 95", "id = 77", "cat = 'c1'", "cat = 'zz'")) {
      out.put(f, new List[] {IndexedTables.filter(dir, f, true).ids(),
          IndexedTables.filter(dir, f, false).ids()});
    }
    return out;
  }
}
