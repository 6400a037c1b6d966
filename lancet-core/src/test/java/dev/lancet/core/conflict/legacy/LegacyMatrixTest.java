package dev.lancet.core.conflict.legacy;

import static dev.lancet.core.conflict.legacy.LegacyTxns.*;
import static dev.lancet.core.conflict.legacy.LegacyVerdict.Kind.INCOMPATIBLE;
import static dev.lancet.core.conflict.legacy.LegacyVerdict.Kind.OK;
import static dev.lancet.core.conflict.legacy.LegacyVerdict.Kind.RETRYABLE;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lancet.core.conflict.legacy.LegacyVerdict.Kind;
import dev.lancet.format.pb.TransactionProtos.Transaction;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Every cell of seed §9's matrix (lancet-core/src/test/resources/legacy-conflict-matrix.tsv), run
 * on concrete transactions: unconditional cells on each kind's default transaction; each
 * conditional cell on scenarios on both sides of its condition; each fp cell against a
 * composite that collides with nothing and one that collides with everything. Lancet's
 * deviations (docs/decisions/0005) are scenarios that state the upstream verdict too.
 */
class LegacyMatrixTest {

  record Cell(String ours, String theirs, String verdict, String detail) {
    String key() {
      return ours + "/" + theirs;
    }
  }

  /** One concrete pair; {@code upstream} is set where Lancet deliberately differs. */
  record Scenario(String condition, Transaction ours, Transaction theirs, Kind expected, boolean secondPhase,
      Optional<Kind> upstream) {}

  static Scenario s(String condition, Transaction ours, Transaction theirs, Kind expected) {
    return new Scenario(condition, ours, theirs, expected, false, Optional.empty());
  }

  static Scenario second(String condition, Transaction ours, Transaction theirs) {
    return new Scenario(condition, ours, theirs, OK, true, Optional.empty());
  }

  static Scenario deviation(String condition, Transaction ours, Transaction theirs, Kind lancet, Kind upstream) {
    return new Scenario(condition, ours, theirs, lancet, false, Optional.of(upstream));
  }

  static Transaction upFilter(long fragment, long... hashes) {
    return up(upBuilder(fragment).setInsertedRows(keys(hashes)));
  }

  static Transaction upRemoving(long fragment) {
    return up(upBuilder().addRemovedFragmentIds(fragment));
  }

  static Transaction upSst(long fragment, java.util.UUID shard, long generation) {
    return up(upBuilder(fragment).addCompactedSstables(sst(shard, generation)));
  }

  /** Scenarios of every conditional cell, and the deviations. */
  static final Map<String, List<Scenario>> SCENARIOS = new LinkedHashMap<>();

  static void put(String key, Scenario... scenarios) {
    SCENARIOS.computeIfAbsent(key, k -> new ArrayList<>()).addAll(List.of(scenarios));
  }

  static {
    // ---- Table A
    put("DL/DL", s("no shared fragment", dl(0), dl(1), OK), second("shared fragment", dl(0), dl(0)),
        s("their removal of our fragment", dl(0), dlRemoving(0), RETRYABLE),
        deviation("we remove a fragment they changed", dlWith(1, 0), dl(0), RETRYABLE, OK));
    put("DL/RW", s("frag overlap", dl(1), rw(1), RETRYABLE), s("no overlap", dl(0), rw(1), OK));
    put("DL/DR", s("target frag in ours", dl(2), dr(2, 1), RETRYABLE), s("target elsewhere", dl(0), dr(2, 1), OK));
    put("OW/OW", s("upsert key conflict", ow("k"), ow("k"), INCOMPATIBLE), s("no key conflict", ow(), ow(), RETRYABLE));
    put("CI/CI", s("same index name", ciDefault(), ci(index("idx", IDX_2, List.of(0), 1)), RETRYABLE),
        s("different names", ciDefault(), ci(index("other", IDX_2, List.of(0), 1)), OK),
        s("both frag-reuse", ci(index(LegacyOps.FRAG_REUSE_INDEX, IDX_1, List.of())),
            ci(index(LegacyOps.FRAG_REUSE_INDEX, IDX_2, List.of())), RETRYABLE),
        s("both mem-wal", memWalIndex(), memWalIndex(), RETRYABLE),
        s("append vs drop", ciDefault(), ci(List.of(), List.of(index("idx", IDX_2, List.of(0)))), RETRYABLE),
        s("replaced identity", ci(List.of(index("idx", IDX_2, List.of(0), 0)), List.of(index("idx", IDX_1, List.of(0)))),
            ci(List.of(), List.of(index("idx", IDX_1, List.of(0)))), RETRYABLE),
        s("concurrent pure removals", ci(List.of(), List.of(index("idx", IDX_1, List.of(0)))),
            ci(List.of(), List.of(index("idx", IDX_1, List.of(0)))), OK));
    put("CI/RW", s("index avoids rewritten frags", ciDefault(), rw(1), OK),
        s("index covers a rewritten frag", ci(index("idx", IDX_1, List.of(0), 1)), rw(1), RETRYABLE),
        s("index records no coverage", ci(index("idx", IDX_1, List.of(0))), rw(1), RETRYABLE));
    put("CI/DR", s("replaced field indexed", ci(index("idx", IDX_1, List.of(1), 0)), dr(2, 1), RETRYABLE),
        s("replaced field not indexed", ciDefault(), dr(2, 1), OK));
    put("RW/DL", s("frag overlap", rw(0), dl(0), RETRYABLE), s("no overlap", rw(1), dl(0), OK));
    put("RW/CI", s("index avoids rewritten frags", rw(1), ciDefault(), OK),
        s("index covers a rewritten frag", rw(1), ci(index("idx", IDX_1, List.of(0), 1)), RETRYABLE),
        s("index records no coverage", rw(1), ci(index("idx", IDX_1, List.of(0))), RETRYABLE),
        s("their frag-reuse maintenance alone", rw(1), ci(List.of(index(LegacyOps.FRAG_REUSE_INDEX, IDX_2, List.of())),
            List.of(index(LegacyOps.FRAG_REUSE_INDEX, IDX_1, List.of()))), OK),
        s("their frag-reuse mixed with another index", rw(1), ci(index(LegacyOps.FRAG_REUSE_INDEX, IDX_2, List.of()),
            index("idx", IDX_1, List.of(0), 0)), INCOMPATIBLE));
    put("RW/RW", s("frag overlap", rw(1), rw(1), RETRYABLE), s("no overlap", rw(1), rw(2), OK));
    put("RW/DR", s("frag overlap", rw(2), dr(2, 1), RETRYABLE), s("no overlap", rw(1), dr(2, 1), OK));
    put("DR/DL", s("target removed", dr(2, 1), dlRemoving(2), INCOMPATIBLE), s("target only tombstoned", dr(2, 1), dl(2), OK));
    put("DR/CI", s("index on replaced field", dr(2, 1), ci(index("idx", IDX_1, List.of(1), 0)), RETRYABLE),
        s("index on another field", dr(2, 1), ciDefault(), OK));
    put("DR/RW", s("frag overlap", dr(2, 1), rw(2), RETRYABLE), s("no overlap", dr(2, 1), rw(1), OK));
    put("DR/DR", s("same frag and field", dr(2, 1), dr(2, 1), RETRYABLE), s("same frag, other field", dr(2, 1), dr(2, 0), OK),
        s("other frag", dr(2, 1), dr(3, 1), OK));
    put("DO/DL", s("overlaid frag removed", overlay(3, 1, 0), dlRemoving(3), RETRYABLE),
        s("overlaid frag only tombstoned", overlay(3, 1, 0), dl(3), OK));
    put("DO/RW", s("rewrite touches overlaid frag", overlay(3, 1, 0), rw(3), RETRYABLE), s("no overlap", overlay(3, 1, 0), rw(1), OK));
    put("MG/CI", s("their MemWAL index", mg(true), memWalIndex(), RETRYABLE), s("plain index", mg(true), ciDefault(), OK));
    put("UP/AP", s("our inserted_rows_filter", upFilter(0, 7), ap(), RETRYABLE), s("no filter", up(0), ap(), OK));
    put("UP/DL", s("no shared fragment", up(0), dl(1), OK), second("shared fragment", up(0), dl(0)));
    put("UP/RW", s("frag overlap", up(1), rw(1), RETRYABLE), s("no overlap", up(0), rw(1), OK));
    put("UP/DR", s("frag overlap", up(2), dr(2, 1), RETRYABLE), s("no overlap", up(0), dr(2, 1), OK));
    put("PJ/AP", s("G1", pj(false, 0, 1), ap(), RETRYABLE), s("preserves nullability", pj(), ap(), OK));
    put("PJ/DR", s("G1", pj(false, 0, 1), dr(2, 1), RETRYABLE), s("preserves nullability", pj(), dr(2, 1), OK));
    put("UC/OW", s("schema metadata", ucSchemaMetadata("m"), ow(), INCOMPATIBLE),
        s("upsert key conflict", uc("k"), ow("k"), INCOMPATIBLE), s("disjoint config", uc("a"), ow(), OK));
    put("MW/CI", s("their MemWAL at or past our generation", mw(sst(SHARD_A, 5)), memWalIndex(sst(SHARD_A, 7)), INCOMPATIBLE),
        s("their MemWAL behind our generation", mw(sst(SHARD_A, 5)), memWalIndex(sst(SHARD_A, 3)), RETRYABLE),
        s("their MemWAL on another shard", mw(sst(SHARD_A, 5)), memWalIndex(sst(SHARD_B, 9)), OK),
        s("plain index", mw(sst(SHARD_A, 5)), ciDefault(), OK));
    // ---- Table B
    put("AP/MG", s("G1", ap(), mg(false), RETRYABLE), s("preserves nullability", ap(), mg(true), OK));
    put("AP/PJ", s("G1", ap(), pj(false, 0, 1), RETRYABLE), s("preserves nullability", ap(), pj(), OK));
    put("DL/UP", s("no shared fragment", dl(0), up(1), OK), second("shared fragment", dl(0), up(0)));
    put("CI/MG", s("our MemWAL index", memWalIndex(), mg(true), RETRYABLE), s("plain index", ciDefault(), mg(true), OK));
    put("RW/DO", s("overlay on a rewritten frag", rw(3), overlay(3, 1, 0), RETRYABLE), s("no overlap", rw(1), overlay(3, 1, 0), OK));
    put("RW/UP", s("frag overlap", rw(0), up(0), RETRYABLE), s("no overlap", rw(1), up(0), OK));
    put("DR/UP", s("target removed", dr(2, 1), upRemoving(2), INCOMPATIBLE), s("moved rows", dr(2, 1), up(2), RETRYABLE),
        s("field rewritten", dr(2, 0), upColumns(2, 0), RETRYABLE), s("other field rewritten", dr(2, 1), upColumns(2, 0), OK),
        s("other fragment", dr(2, 1), up(0), OK));
    put("DR/PJ", s("G1", dr(2, 1), pj(false, 0, 1), RETRYABLE), s("replaced field dropped", dr(2, 1), pj(true, 0), INCOMPATIBLE),
        s("replaced field kept", dr(2, 1), pj(true, 0, 1), OK));
    put("DO/UP", s("overlaid frag removed", overlay(3, 1, 0), upRemoving(3), RETRYABLE),
        second("rows moved out of overlaid frag", overlay(3, 1, 0), up(3)),
        s("column rewrite moves nothing", overlay(3, 1, 0), upColumns(3, 1), OK), s("other fragment", overlay(3, 1, 0), up(0), OK));
    put("DO/PJ", s("G1", overlay(3, 1, 0), pj(false, 0, 1), RETRYABLE), s("preserves nullability", overlay(3, 1, 0), pj(), OK));
    put("UP/DO", s("RewriteColumns, frag+field overlap", upColumns(3, 1), overlay(3, 1, 0), RETRYABLE),
        s("RewriteColumns, other field", upColumns(3, 0), overlay(3, 1, 0), OK),
        second("RewriteRows moving rows from overlaid frag", up(3), overlay(3, 1, 0)),
        s("RewriteRows removing overlaid frag", upRemoving(3), overlay(3, 1, 0), RETRYABLE),
        s("other fragment", up(0), overlay(3, 1, 0), OK));
    put("UP/UP", s("shared key", upFilter(0, 7), upFilter(1, 7), RETRYABLE),
        s("their insert has no key filter", upFilter(0, 7), up(1), RETRYABLE),
        s("disjoint keys, different fragments", upFilter(0, 7), upFilter(1, 8), OK),
        second("shared fragment", up(0), up(0)), s("different fragments", up(0), up(1), OK));
    put("UP/PJ", s("G1", up(0), pj(false, 0, 1), RETRYABLE), s("preserves nullability", up(0), pj(), OK));
    put("PJ/DO", s("G1", pj(false, 0, 1), overlay(3, 1, 0), RETRYABLE), s("preserves nullability", pj(), overlay(3, 1, 0), OK));
    put("PJ/UP", s("G1", pj(false, 0, 1), up(0), RETRYABLE), s("preserves nullability", pj(), up(0), OK));
    put("UC/MG", s("G2", ucSchemaMetadata("m"), mg(true), RETRYABLE), s("config only", uc("a"), mg(true), OK));
    put("MW/UP", s("committed at our generation", mw(sst(SHARD_A, 5)), upSst(0, SHARD_A, 5), INCOMPATIBLE),
        s("committed behind", mw(sst(SHARD_A, 5)), upSst(0, SHARD_A, 2), RETRYABLE),
        s("other shard", mw(sst(SHARD_A, 5)), upSst(0, SHARD_B, 1), OK));
    put("CO/UP", s("untranslatable (RewriteColumns)", coAppend(), upColumns(0, 1), RETRYABLE),
        s("translatable, footprints apart", coAppend(), up(0), OK),
        s("translatable, footprints collide", coReset(), up(0), RETRYABLE));
    put("CI/UP", s("the Update rewrote no field", ciDefault(), up(upBuilder(0).clearFieldsModified()), OK));
    // ---- Table C
    put("OW/UC", s("upsert key conflict", ow("k"), uc("k"), INCOMPATIBLE), s("disjoint", ow(), uc("a"), OK));
    put("CI/MW", second("our MemWAL index absorbs their progress", memWalIndex(), mw(sst(SHARD_A, 5))),
        s("plain index", ciDefault(), mw(sst(SHARD_A, 5)), INCOMPATIBLE));
    put("MG/UC", s("G2", mg(true), ucSchemaMetadata("m"), RETRYABLE), s("config only", mg(true), uc("a"), OK));
    put("UP/MW", s("committed at our generation", upSst(0, SHARD_A, 5), mw(sst(SHARD_A, 5)), INCOMPATIBLE),
        s("committed behind", upSst(0, SHARD_A, 9), mw(sst(SHARD_A, 5)), RETRYABLE),
        s("no sstables", up(0), mw(sst(SHARD_A, 5)), OK));
    put("UC/UC", s("config key", uc("a"), uc("a"), INCOMPATIBLE), s("table metadata key", ucTableMetadata("t"), ucTableMetadata("t"), INCOMPATIBLE),
        s("schema metadata", ucSchemaMetadata("m"), ucSchemaMetadata("n"), INCOMPATIBLE), s("disjoint", uc("a"), uc("b"), OK));
    put("MW/MW", s("committed at our generation", mw(sst(SHARD_A, 5)), mw(sst(SHARD_A, 5)), INCOMPATIBLE),
        s("committed behind", mw(sst(SHARD_A, 5)), mw(sst(SHARD_A, 4)), RETRYABLE),
        s("other shard", mw(sst(SHARD_A, 5)), mw(sst(SHARD_B, 5)), OK));
    put("UB/UB", s("name collision", ub(0, "b1", "/b1"), ub(0, "b1", "/b2"), INCOMPATIBLE),
        s("path collision", ub(0, null, "/b1"), ub(0, null, "/b1"), INCOMPATIBLE),
        s("id collision", ub(3, "x", "/x"), ub(3, "y", "/y"), INCOMPATIBLE),
        s("unrelated", ub(0, "b1", "/b1"), ub(0, "b2", "/b2"), OK));
    // ---- Lancet deviations (docs/decisions/0005-legacy-conflict-matrix.md)
    put("AP/UP", deviation("their merge insert asserted new keys", ap(), upFilter(0, 7), RETRYABLE, OK));
    put("CL/CO", deviation("a Clone has no footprint", cl(), coAppend(), RETRYABLE, OK));
    put("UB/CO", deviation("base name collision", ub(0, "b1", "/b1"), coAddBase("b1", "/elsewhere"), RETRYABLE, OK),
        deviation("writer-chosen base id", ub(5, "b9", "/b9"), coAppend(), RETRYABLE, OK),
        s("unrelated base", ub(0, "b1", "/b1"), coAddBase("b2", "/b2"), OK));
    put("DL/DO", s("their overlay on a fragment we delete from (Lancet's Delete keeps overlays)",
        dl(3), overlay(3, 1, 0), OK));
    put("DL/CO", s("their overlay on a fragment we delete from", dl(0), coOverlay(0, 1), OK),
        s("their deletion in the same fragment", dl(0), coSetDeletionFile(0), RETRYABLE));
    put("CO/DL", s("our overlay on a fragment they deleted from", coOverlay(0, 1), dl(0), OK),
        s("our deletion of their fragment", coSetDeletionFile(0), dl(0), RETRYABLE),
        s("our overlay elsewhere", coOverlay(2, 1), dl(0), OK));
  }

  static Transaction dlWith(long updated, long removed) {
    Transaction t = dl(updated);
    return t.toBuilder().setDelete(t.getDelete().toBuilder().addDeletedFragmentIds(removed)).build();
  }

  /** Cells whose unconditional TSV verdict Lancet deliberately does not follow. */
  static final Set<String> DEVIATING_CELLS = Set.of("CL/CO");

  static List<Cell> cells() throws IOException {
    List<Cell> out = new ArrayList<>();
    try (BufferedReader r = new BufferedReader(new InputStreamReader(
        LegacyMatrixTest.class.getResourceAsStream("/legacy-conflict-matrix.tsv"), StandardCharsets.UTF_8))) {
      String header = r.readLine();
      assertThat(header).isEqualTo("ours\ttheirs\tverdict\tdetail");
      for (String line = r.readLine(); line != null; line = r.readLine()) {
        if (line.isBlank()) {
          continue;
        }
        String[] f = line.split("\t", -1);
        out.add(new Cell(f[0], f[1], f[2], f[3]));
      }
    }
    return out;
  }

  static Kind expected(String verdict) {
    switch (verdict) {
      case "ok": return OK;
      case "retry": return RETRYABLE;
      case "inc": return INCOMPATIBLE;
      default: throw new IllegalArgumentException(verdict);
    }
  }

  static List<Scenario> scenarios(Cell cell) {
    List<Scenario> out = new ArrayList<>(SCENARIOS.getOrDefault(cell.key(), List.of()));
    LegacyKind o = LegacyKind.fromAbbreviation(cell.ours());
    LegacyKind t = LegacyKind.fromAbbreviation(cell.theirs());
    switch (cell.verdict()) {
      case "cond":
        assertThat(out).as("cell %s is conditional but has no scenarios", cell.key()).hasSizeGreaterThanOrEqualTo(2);
        break;
      case "fp":
        Transaction ours = defaults(o);
        Transaction theirs = defaults(t);
        out.add(s("footprints apart", o == LegacyKind.COMPOSITE ? coAppend() : ours,
            t == LegacyKind.COMPOSITE ? coAppend() : theirs, OK));
        out.add(s("footprints collide", o == LegacyKind.COMPOSITE ? coReset() : ours,
            t == LegacyKind.COMPOSITE ? coReset() : theirs, RETRYABLE));
        if (o == LegacyKind.UPDATE || t == LegacyKind.UPDATE) {
          out.add(s("untranslatable Update", o == LegacyKind.UPDATE ? upColumns(0, 1) : coAppend(),
              t == LegacyKind.UPDATE ? upColumns(0, 1) : coAppend(), RETRYABLE));
        }
        break;
      default:
        if (!DEVIATING_CELLS.contains(cell.key())) {
          // "ok, mutates new_indices": OK, with the index rewrite left as an obligation.
          boolean rewrites = cell.detail().contains("mutates");
          out.add(new Scenario("unconditional", defaults(o), defaults(t), expected(cell.verdict()), rewrites,
              Optional.empty()));
        }
    }
    return out;
  }

  @Test
  void the_table_has_every_ordered_pair_once() throws IOException {
    List<Cell> cells = cells();
    assertThat(cells).hasSize(289);
    Set<String> keys = new HashSet<>();
    cells.forEach(c -> keys.add(c.key()));
    assertThat(keys).hasSize(289);
    assertThat(SCENARIOS.keySet()).allMatch(keys::contains);
  }

  @TestFactory
  Stream<DynamicTest> every_cell() throws IOException {
    List<DynamicTest> tests = new ArrayList<>();
    for (Cell cell : cells()) {
      for (Scenario sc : scenarios(cell)) {
        String name = cell.key() + " [" + sc.condition() + "]";
        tests.add(DynamicTest.dynamicTest(name, () -> {
          LegacyVerdict v = LegacyConflicts.check(sc.ours(), sc.theirs());
          String where = "cell ours=" + cell.ours() + " theirs=" + cell.theirs() + " condition='" + sc.condition()
              + "' (matrix: " + cell.verdict() + ", " + cell.detail() + ")"
              + sc.upstream().map(u -> " [Lancet deviation; upstream: " + u + "]").orElse("") + " got " + v;
          assertThat(v.kind()).as(where).isEqualTo(sc.expected());
          assertThat(v.needsSecondPhase()).as(where + " (second phase)").isEqualTo(sc.secondPhase());
          assertThat(v.reason()).as(where).contains(LegacyKind.fromAbbreviation(cell.ours()).operationName());
        }));
      }
    }
    return tests.stream();
  }

  @Test
  void every_deviation_differs_from_upstream_and_is_named_in_the_decision_record() throws IOException {
    java.nio.file.Path doc = java.nio.file.Path.of("..", "docs", "decisions", "0005-legacy-conflict-matrix.md");
    String text = java.nio.file.Files.exists(doc) ? java.nio.file.Files.readString(doc) : "";
    int count = 0;
    for (Map.Entry<String, List<Scenario>> e : SCENARIOS.entrySet()) {
      for (Scenario sc : e.getValue()) {
        if (sc.upstream().isPresent()) {
          count++;
          assertThat(sc.upstream().get()).as(e.getKey() + " " + sc.condition()).isNotEqualTo(sc.expected());
          if (!text.isEmpty()) {
            assertThat(text).as("decision record names deviation " + e.getKey()).contains("| " + e.getKey() + " |");
          }
        }
      }
    }
    assertThat(count).isGreaterThanOrEqualTo(5);
  }
}
