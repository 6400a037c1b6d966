package dev.lancet.interop.index;

import static dev.lancet.interop.index.IndexedTables.Kind.BITMAP;
import static dev.lancet.interop.index.IndexedTables.Kind.BTREE;
import static dev.lancet.interop.index.IndexedTables.Kind.IVF_FLAT;
import static dev.lancet.interop.index.IndexedTables.Kind.IVF_PQ;
import static dev.lancet.interop.index.IndexedTables.Kind.ZONEMAP;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lancet.core.Table;
import dev.lancet.core.action.Action;
import dev.lancet.core.action.ActionCodec;
import dev.lancet.core.action.AdjustIndexCoverage;
import dev.lancet.core.transaction.WriteForm;
import dev.lancet.format.pb.TransactionProtos;
import dev.lancet.interop.index.IndexedTables.Answer;
import dev.lancet.interop.index.IndexedTables.Coverage;
import dev.lancet.table.CompactionResult;
import dev.lancet.table.IndexCoverage;
import dev.lancet.table.IndexCoverage.Outcome;
import dev.lancet.table.LanceTable;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Lancet's compaction and the indexes lance-core 7.0.0 builds (issue 22, point 1;
 * docs/decisions/0026). Every case starts from one layout: Lancet writes fragments 0-3 (100
 * rows each); lance-core builds an IVF_FLAT index on {@code vec} and a BTree on {@code id}
 * (covering 0-3); Lancet appends fragment 4 (200 rows, too big to compact at the target of 150)
 * and 5 (100); lance-core builds a bitmap index on {@code cat} and an IVF_PQ index on
 * {@code vec2} (covering 0-5); Lancet appends fragments 6 and 7 (60 rows each), deletes every
 * 20th row and updates {@code cat} of every 50th (moving them to fragment 8). Compaction to 150
 * rows then rewrites fragments 0-1 and 2-3 (covered by all four indexes), and 6-8 (covered by
 * none); 5 is a candidate alone in its coverage, so it stays.
 *
 * <p>After each compaction lance-core opens the table: {@code describeIndices} gives the
 * expected coverage and {@code getIndexStatistics} the unindexed rows, and a nearest-neighbour
 * search per vector index and filters the scalar indexes serve return what brute force returns
 * (and, with stable row ids, what lance-core's own compaction of a copy of the same table
 * returns, whose fragments and index coverage are the oracle). Both write forms: the default
 * ({@code legacy_when_exact}) and {@code composite}.
 */
class CompactionIndexInteropTest {
  static final long TARGET = 150;
  static final List<String> INDEXES = List.of("cat_idx", "id_idx", "vec2_idx", "vec_idx");

  @TempDir Path tmp;

  static Path layout(Path dir, boolean stable, WriteForm form) {
    IndexedTables.create(dir, stable, 400, 100);
    if (form == WriteForm.COMPOSITE) {
      try (LanceTable t = LanceTable.open(dir.toString())) {
        t.newTransaction().setConfig(WriteForm.CONFIG_KEY, form.configValue()).commit();
      }
    }
    IndexedTables.buildIndex(dir, "vec_idx", IVF_FLAT);
    IndexedTables.buildIndex(dir, "id_idx", BTREE);
    IndexedTables.append(dir, 400, 200);
    IndexedTables.append(dir, 600, 100);
    IndexedTables.buildIndex(dir, "cat_idx", BITMAP);
    IndexedTables.buildIndex(dir, "vec2_idx", IVF_PQ);
    IndexedTables.append(dir, 700, 60);
    IndexedTables.append(dir, 760, 60);
    try (LanceTable t = LanceTable.open(dir.toString())) {
      t.delete("id % 20 = 7");
      t.update("id % 50 = 11", Map.of("cat", "'zz'"));
    }
    assertThat(IndexedTables.fragments(dir).keySet()).containsExactly(0, 1, 2, 3, 4, 5, 6, 7, 8);
    return dir;
  }

  @ParameterizedTest
  @EnumSource(value = WriteForm.class)
  void withStableRowIdsEveryIndexFollowsItsRowsAsInLanceCoresOwnCompaction(WriteForm form) {
    Path ours = layout(tmp.resolve("ours"), true, form);
    Map<String, Answer[]> before = answers(ours);
    Map<String, Coverage> coverageBefore = IndexedTables.coverage(ours);
    Path theirs = IndexedTables.copy(ours, tmp.resolve("theirs"));
    IndexedTables.lance(theirs, ds -> {
      ds.compact(org.lance.compaction.CompactionOptions.builder()
          .withTargetRowsPerFragment(TARGET).build());
      return null;
    });

    CompactionResult r = compact(ours, false);

    assertThat(r.fragmentsRemoved()).isEqualTo(7);
    assertThat(r.fragmentsSkipped()).isZero();
    assertThat(outcomes(r)).isEqualTo(Map.of("cat_idx", "KEPT 4", "id_idx", "KEPT 4",
        "vec2_idx", "KEPT 4", "vec_idx", "KEPT 4"));
    // lance-core's compaction of the same version is the oracle: the same fragments, and every
    // index (same segments) covering the same fragments.
    assertThat(IndexedTables.fragments(ours)).isEqualTo(IndexedTables.fragments(theirs));
    Map<String, Coverage> after = IndexedTables.coverage(ours);
    assertThat(after).isEqualTo(IndexedTables.coverage(theirs));
    assertThat(after.keySet()).containsExactlyElementsOf(INDEXES);
    for (String name : INDEXES) {
      assertThat(after.get(name).uuids()).as(name).isEqualTo(coverageBefore.get(name).uuids());
      assertThat(IndexedTables.unindexedRows(ours, name)).as("unindexed rows of %s", name)
          .isEqualTo(IndexedTables.unindexedRows(theirs, name))
          .isEqualTo(rowsOutside(ours, after.get(name)));
    }
    assertThat(after.get("vec_idx").fragments()).as("the new fragments of 0-3")
        .containsExactly(9, 10, 11, 12);

    writtenAs(ours, form, 3, 8);
    Map<String, Answer[]> now = answers(ours);
    assertStillRight(before, now);
    assertEveryQueryServedByAnIndex(now);
    Map<String, Answer[]> oracle = answers(theirs);
    now.forEach((q, a) -> assertThat(a[0].ids()).as("%s as after lance-core's compaction", q)
        .isEqualTo(oracle.get(q)[0].ids()));
  }

  @ParameterizedTest
  @EnumSource(value = WriteForm.class)
  void withoutStableRowIdsTheCoveredFragmentsAreSkippedAndTheRestCompacted(WriteForm form) {
    Path ours = layout(tmp.resolve("ours"), false, form);
    Map<String, Answer[]> before = answers(ours);
    Map<String, Coverage> coverageBefore = IndexedTables.coverage(ours);
    Map<Integer, Integer> fragmentsBefore = IndexedTables.fragments(ours);

    CompactionResult r = compact(ours, false);

    assertThat(r.fragmentsRemoved()).as("6, 7, 8").isEqualTo(3);
    assertThat(r.fragmentsAdded()).isEqualTo(1);
    assertThat(r.fragmentsSkipped()).as("0-3").isEqualTo(4);
    assertThat(outcomes(r)).isEqualTo(Map.of("cat_idx", "SKIPPED 4", "id_idx", "SKIPPED 4",
        "vec2_idx", "SKIPPED 4", "vec_idx", "SKIPPED 4"));
    assertThat(r.indexCoverage()).allSatisfy(c -> assertThat(c.reason())
        .contains("no stable row ids", "allowIndexCoverageLoss(true)"));
    assertThat(IndexedTables.coverage(ours)).as("every index as it was")
        .isEqualTo(coverageBefore);
    Map<Integer, Integer> fragments = IndexedTables.fragments(ours);
    for (int id = 0; id <= 5; id++) {
      assertThat(fragments.get(id)).as("fragment %s", id).isEqualTo(fragmentsBefore.get(id));
    }
    assertThat(fragments.keySet()).containsExactly(0, 1, 2, 3, 4, 5, 9);
    writtenAs(ours, form, 1, 0);
    Map<String, Answer[]> now = answers(ours);
    assertStillRight(before, now);
    assertEveryQueryServedByAnIndex(now);

    // Compacting again changes nothing, and says why again.
    CompactionResult again = compact(ours, false);
    assertThat(again.committed()).isFalse();
    assertThat(outcomes(again)).isEqualTo(outcomes(r));
  }

  @Test
  void losingCoverageIsTheCallersExplicitChoiceAndLanceCoreStillReadsTheTable() {
    Path ours = layout(tmp.resolve("ours"), false, WriteForm.DEFAULT);
    Map<String, Answer[]> before = answers(ours);
    long rows = countRows(ours);

    CompactionResult r = compact(ours, true);

    assertThat(r.fragmentsRemoved()).isEqualTo(7);
    assertThat(outcomes(r)).isEqualTo(Map.of("cat_idx", "LOST 4", "id_idx", "LOST 4",
        "vec2_idx", "LOST 4", "vec_idx", "DROPPED 4"));
    Map<String, Coverage> after = IndexedTables.coverage(ours);
    assertThat(after.keySet()).as("the vector index that covered only rewritten fragments is gone")
        .containsExactly("cat_idx", "id_idx", "vec2_idx");
    assertThat(IndexedTables.unindexedRows(ours, "id_idx")).isEqualTo(rows);
    assertThat(IndexedTables.unindexedRows(ours, "cat_idx"))
        .isEqualTo(rowsOutside(ours, after.get("cat_idx")));
    assertThat(countRows(ours)).isEqualTo(rows);
    // A legacy Rewrite keeps a vector index that covers nothing (lance-core drops it only at its
    // next delete, update or merge), so dropping one now is written as a composite.
    writtenAs(ours, WriteForm.COMPOSITE, 0, 0);
    assertStillRight(before, answers(ours));
  }

  @Test
  void withStableRowIdsAZoneMapsFragmentsAreSkippedUnlessLossIsAllowed() {
    Path ours = tmp.resolve("zonemap");
    IndexedTables.create(ours, true, 400, 100);
    IndexedTables.buildIndex(ours, "id_idx", BTREE);
    IndexedTables.buildIndex(ours, "zm_idx", ZONEMAP);
    IndexedTables.append(ours, 400, 60);
    IndexedTables.append(ours, 460, 60);
    List<Long> someIds = IndexedTables.filter(ours, "id >= 90 AND id < 110", false).ids();

    CompactionResult r = compact(ours, false);
    assertThat(outcomes(r)).as("the BTree is not what held them back")
        .isEqualTo(Map.of("zm_idx", "SKIPPED 4"));
    assertThat(r.indexCoverage().get(0).reason()).contains("ZoneMap", "fragment and offset");
    assertThat(r.fragmentsRemoved()).as("4 and 5").isEqualTo(2);

    CompactionResult lost = compact(ours, true);
    assertThat(outcomes(lost)).isEqualTo(Map.of("id_idx", "KEPT 4", "zm_idx", "LOST 4"));
    Map<String, Coverage> after = IndexedTables.coverage(ours);
    // The zone map drops the rewritten fragments (upstream's rule for indexes keyed by fragment
    // offsets); the BTree follows its rows to the new ones.
    assertThat(after.get("zm_idx").fragments()).isEmpty();
    assertThat(after.get("id_idx").fragments()).isEqualTo(new java.util.TreeSet<>(
        IndexedTables.fragments(ours).keySet().stream().filter(f -> f != 6).toList()));
    // No legacy operation drops coverage of a rewrite, so this one is written as a composite.
    writtenAs(ours, WriteForm.COMPOSITE, 2, 2 + 2);
    Answer byIndex = IndexedTables.filter(ours, "id >= 90 AND id < 110", true);
    assertThat(byIndex.indexed()).isTrue();
    assertThat(byIndex.ids()).isEqualTo(someIds);
  }

  // ---------------------------------------------------------------------------------------------

  private static CompactionResult compact(Path dir, boolean allowLoss) {
    try (LanceTable t = LanceTable.open(dir.toString())) {
      CompactionResult r = t.compact().targetRowsPerFragment(TARGET)
          .allowIndexCoverageLoss(allowLoss).commit();
      r.indexCoverage().forEach(c -> System.out.println("[compaction-index] " + c.describe()));
      return r;
    }
  }

  private static long countRows(Path dir) {
    return IndexedTables.lance(dir, ds -> ds.countRows());
  }

  private static Map<String, String> outcomes(CompactionResult r) {
    Map<String, String> out = new TreeMap<>();
    for (IndexCoverage c : r.indexCoverage()) {
      out.merge(c.index(), c.outcome() + " " + c.fragments(), (a, b) -> a + ", " + b);
    }
    return out;
  }

  /** Live rows of the fragments {@code c} does not cover. */
  private static long rowsOutside(Path dir, Coverage c) {
    return IndexedTables.fragments(dir).entrySet().stream()
        .filter(e -> !c.fragments().contains(e.getKey())).mapToLong(Map.Entry::getValue).sum();
  }

  /**
   * The newest version was written as the table's form says: a legacy Rewrite of {@code groups}
   * groups, or a composite operation with {@code adjustments} AdjustIndexCoverage actions.
   */
  private static void writtenAs(Path dir, WriteForm form, int groups, int adjustments) {
    try (Table kernel = Table.open(dir.toString())) {
      TransactionProtos.Transaction txn = kernel.latest().transaction().orElseThrow();
      if (form == WriteForm.DEFAULT) {
        assertThat(txn.getOperationCase()).isEqualTo(TransactionProtos.Transaction.OperationCase.REWRITE);
        assertThat(txn.getRewrite().getGroupsCount()).as("rewrite groups").isEqualTo(groups);
        assertThat(txn.getRewrite().getRewrittenIndicesCount()).isZero();
      } else {
        assertThat(txn.getOperationCase())
            .isEqualTo(TransactionProtos.Transaction.OperationCase.COMPOSITE_OPERATION);
        List<Action> actions = ActionCodec.decode(txn.getCompositeOperation()).steps().stream()
            .flatMap(s -> s.actions().stream()).toList();
        assertThat(actions.stream().filter(a -> a instanceof AdjustIndexCoverage).count())
            .isEqualTo(adjustments);
      }
    }
  }

  /** Queries by index and by brute force: for each, {indexed, brute force}. */
  private static Map<String, Answer[]> answers(Path dir) {
    Map<String, Function<Boolean, Answer>> queries = new LinkedHashMap<>();
    for (long key : List.of(3L, 61L, 455L, 790L)) {
      queries.put("nearest vec " + key, i -> IndexedTables.nearest(dir, "vec",
          IndexedTables.vec(key, "vec"), 10, i));
      queries.put("nearest vec2 " + key, i -> IndexedTables.nearest(dir, "vec2",
          IndexedTables.vec(key, "vec2"), 10, i));
    }
    for (String f : List.of("id >= 90 AND id < 130", "id = 361", "cat = 'c2'", "cat = 'zz'")) {
      queries.put(f, i -> IndexedTables.filter(dir, f, i));
    }
    Map<String, Answer[]> out = new LinkedHashMap<>();
    queries.forEach((q, run) -> out.put(q, new Answer[] {run.apply(true), run.apply(false)}));
    return out;
  }

  /**
   * Compaction changes no answer: brute force answers as before, and every query an index
   * answered right before is answered right, by an index, after (lance-core 7.0.0 answers some
   * nearest-neighbour queries wrong on tables with stable row ids after an update; such a query
   * is not held to brute force).
   */
  private static void assertStillRight(Map<String, Answer[]> before, Map<String, Answer[]> after) {
    int right = 0;
    for (Map.Entry<String, Answer[]> e : before.entrySet()) {
      String q = e.getKey();
      Answer[] was = e.getValue();
      Answer[] now = after.get(q);
      assertThat(now[1].ids()).as("%s by brute force", q).isEqualTo(was[1].ids());
      if (was[0].ids().equals(was[1].ids())) {
        right++;
        assertThat(now[0].ids()).as("%s through the index", q).isEqualTo(now[1].ids());
      }
    }
    assertThat(right).as("queries the indexes answered right before").isGreaterThan(before.size() / 2);
  }

  private static void assertEveryQueryServedByAnIndex(Map<String, Answer[]> answers) {
    answers.forEach((q, a) -> assertThat(a[0].indexed()).as("%s served by an index", q).isTrue());
  }
}
