package dev.lancet.interop.live;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.lancet.core.Table;
import dev.lancet.core.commit.CommitResult;
import dev.lancet.core.commit.ConflictingCommitException;
import dev.lancet.core.operation.Delete;
import dev.lancet.core.operation.LegacyOperation;
import dev.lancet.core.operation.Update;
import dev.lancet.format.model.DataFile;
import dev.lancet.format.model.Fragment;
import dev.lancet.format.model.Manifest;
import dev.lancet.interop.lance.LanceOracle.RowIdentity;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;

/**
 * Conflicts forced in a fixed order, before the live phase: Lancet plans a Delete or a
 * rewrite-rows Update of rows of fragment F at version v, the lance-core process then deletes a
 * row of F (and answers with the version it committed), then Lancet commits.
 *
 * <ul>
 *   <li>lance-core deleted one of our rows: the commit must fail with a retryable {@link
 *       ConflictingCommitException} naming F, publish nothing, and the re-plan on the newer
 *       version (which skips the row already deleted) must land;
 *   <li>lance-core deleted another row of F: the commit must land through the row-level rebase,
 *       with F's deletion vector holding both deletions.
 * </ul>
 *
 * Uses the rows {@link LiveTable#SCRIPTED_FIRST}.. (290..299), which nobody else touches.
 */
final class ScriptedConflicts {
  /** Makes the lance-core process delete {@code id = k} now; the version it committed. */
  interface LanceDeleter {
    long delete(long id) throws Exception;
  }

  /** Lancet's acknowledged commits and its typed conflicts ("operation vs winner"). */
  record Outcome(List<LiveEvent> acknowledged, Map<String, Integer> conflicts) {}

  private final Path dir;
  private final Table table;
  private final DataFile layout;
  private final LanceDeleter lance;
  private final List<LiveEvent> acknowledged = new ArrayList<>();
  private final Map<String, Integer> conflicts = new TreeMap<>();

  private ScriptedConflicts(Path dir, Table table, LanceDeleter lance) {
    this.dir = dir;
    this.table = table;
    this.layout = table.latest().manifest().fragments().get(0).files().get(0);
    this.lance = lance;
  }

  static Outcome run(Path dir, LanceDeleter lance) throws Exception {
    try (Table table = Table.open(dir.toString())) {
      ScriptedConflicts s = new ScriptedConflicts(dir, table, lance);
      s.intersecting("Delete", List.of(290L, 291L), 290L);
      s.disjoint("Delete", List.of(292L), 293L);
      s.intersecting("Update", List.of(294L), 294L);
      s.disjoint("Update", List.of(295L), 296L);
      return new Outcome(List.copyOf(s.acknowledged), Map.copyOf(s.conflicts));
    }
  }

  /** lance-core deletes {@code theirs}, one of {@code ours}, between our plan and our commit. */
  private void intersecting(String op, List<Long> ours, long theirs) throws Exception {
    Manifest read = table.latest().manifest();
    Map<Long, RowIdentity> where = LiveTable.rowsAt(dir, read.version());
    long fragment = where.get(theirs).fragmentId();
    LegacyOperation planned = plan(op, read, where, ours);
    long lanceVersion = lance.delete(theirs);
    assertThat(lanceVersion).as("lance-core's delete of %d lands after our read version", theirs)
        .isGreaterThan(read.version());

    ConflictingCommitException e = catchThrowableOfType(
        () -> commit(op, planned, read.version(), ours),
        ConflictingCommitException.class);
    assertThat(e).as("%s of %s planned at version %d, after lance-core deleted %d", op, ours,
        read.version(), theirs).isNotNull();
    assertThat(e.getMessage()).as("the conflict names the fragment")
        .contains("fragment " + fragment);
    // Found in the second phase (deletion vectors), so the winner is named by the phase, and
    // the version is the newest one checked: lance-core's delete.
    assertThat(e.version()).as("the conflict's version").isEqualTo(lanceVersion);
    System.out.printf("scripted %s conflict (winner %s): %s%n", op, e.winnerOperation(), e.getMessage());
    conflicts.merge(op + " vs " + e.winnerOperation(), 1, Integer::sum);
    assertThat(table.latest().version()).as("the refused commit published nothing").isEqualTo(lanceVersion);

    // Re-plan on the newer version, skipping the row lance-core deleted.
    Manifest now = table.latest().manifest();
    Map<Long, RowIdentity> whereNow = LiveTable.rowsAt(dir, now.version());
    List<Long> left = ours.stream().filter(whereNow::containsKey).toList();
    assertThat(left).doesNotContain(theirs);
    if (!left.isEmpty()) {
      CommitResult r = commit(op, plan(op, now, whereNow, left), now.version(), left);
      assertThat(r.version()).isEqualTo(now.version() + 1);
    }
  }

  /** lance-core deletes {@code theirs}, another row of the same fragment, in between. */
  private void disjoint(String op, List<Long> ours, long theirs) throws Exception {
    Manifest read = table.latest().manifest();
    Map<Long, RowIdentity> where = LiveTable.rowsAt(dir, read.version());
    int fragment = where.get(theirs).fragmentId();
    for (long id : ours) {
      assertThat(where.get(id).fragmentId()).as("id %d shares fragment %d", id, fragment).isEqualTo(fragment);
    }
    LegacyOperation planned = plan(op, read, where, ours);
    long lanceVersion = lance.delete(theirs);

    CommitResult r = commit(op, planned, read.version(), ours);
    assertThat(r.version()).as("rebased over lance-core's delete").isEqualTo(lanceVersion + 1);
    Fragment f = r.manifest().fragments().stream().filter(x -> x.id() == fragment).findFirst().orElseThrow();
    List<Integer> expected = new ArrayList<>();
    expected.add(where.get(theirs).offset());
    ours.forEach(id -> expected.add(where.get(id).offset()));
    assertThat(LiveTable.deletionVector(table, f).toArray())
        .as("fragment %d's merged deletion vector", fragment)
        .contains(expected.stream().mapToInt(Integer::intValue).toArray());
    Set<Long> seen = LiveTable.rowsAt(dir, r.version()).keySet();
    assertThat(seen).as("lance-core reads neither row").doesNotContain(theirs);
    if (op.equals("Delete")) {
      assertThat(seen).doesNotContainAnyElementsOf(ours);
    } else {
      assertThat(seen).containsAll(ours);
    }
  }

  private LegacyOperation plan(String op, Manifest m, Map<Long, RowIdentity> where, List<Long> ids) {
    LiveTable.RowDeletion rows = LiveTable.deleteRows(table, m, where, ids);
    if (op.equals("Delete")) {
      return new Delete(rows.updated(), rows.removed(), "id IN " + ids.toString().replace('[', '(').replace(']', ')'));
    }
    DataFile file = LiveTable.writeRows(dir, ids, ids.stream().map(ScriptedConflicts::value).toList(), layout);
    return new Update(rows.removed(), rows.updated(),
        List.of(Fragment.of(0, ids.size(), List.of(file))), List.of(), List.of(), List.of(),
        Update.UpdateMode.REWRITE_ROWS, Optional.empty(), Map.of());
  }

  private CommitResult commit(String op, LegacyOperation operation, long readVersion, List<Long> ids) {
    CommitResult r = table.newLegacyTransaction(operation).readVersion(readVersion)
        .uuid(UUID.randomUUID().toString()).commit();
    Map<Long, String> upserts = new TreeMap<>();
    if (op.equals("Update")) {
      ids.forEach(id -> upserts.put(id, value(id)));
    }
    acknowledged.add(new LiveEvent(r.version(), r.transactionUuid(), "lancet-scripted", op, upserts,
        op.equals("Delete") ? Set.copyOf(ids) : Set.of(), true));
    return r;
  }

  private static String value(long id) {
    return "scripted-" + id;
  }
}
