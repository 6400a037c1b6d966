package dev.lancet.datafile.lance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancet.table.Attempt;
import dev.lancet.table.CompactionResult;
import dev.lancet.table.CreateOptions;
import dev.lancet.table.LanceTable;
import dev.lancet.table.StatementResult;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A concurrent commit landing while a statement plans (made from the statement's progress
 * callback, so the interleaving is the same every run): a compaction rebases over appends and
 * merge inserts of new keys, and is planned again over a delete of a row it rewrote; a merge
 * insert is planned again over a concurrent insert of its key and then updates it.
 */
class ConcurrentStatementsTest {
  @TempDir Path tmp;
  BufferAllocator alloc;
  final List<ArrowReader> readers = new ArrayList<>();

  @BeforeEach
  void open() {
    alloc = new RootAllocator();
  }

  @AfterEach
  void close() throws IOException {
    for (ArrowReader r : readers) {
      r.close();
    }
    alloc.close();
  }

  ArrowReader rows(long start, long total) {
    ArrowReader r = new GeneratedRows(alloc, start, total, 100);
    readers.add(r);
    return r;
  }

  private LanceTable table() {
    return LanceTable.create(tmp.resolve("t").toString(), rows(0, 1000),
        CreateOptions.builder().maxRowsPerFile(100).stableRowIds(true).build());
  }

  /** Runs {@code body} once, the first time the statement has read more than 300 rows. */
  private static java.util.function.LongConsumer once(AtomicBoolean done, Runnable body) {
    return rows -> {
      if (rows > 300 && done.compareAndSet(false, true)) {
        body.run();
      }
    };
  }

  @Test
  void compactionRebasesOverAConcurrentAppendAndMergeInsertOfNewKeys() throws IOException {
    try (LanceTable t = table(); LanceTable other = LanceTable.open(t.uri())) {
      Map<Long, Long> ids = StatementsTest.rowIds(t);
      AtomicBoolean done = new AtomicBoolean();
      List<Attempt> attempts = new ArrayList<>();
      CompactionResult r = t.compact().targetRowsPerFragment(500).onAttempt(attempts::add)
          .onProgress(once(done, () -> {
            other.append(rows(1000, 50));
            other.mergeInsert("id").from(rows(2000, 30)).commit();
          })).commit();
      assertThat(r.plans()).isEqualTo(1);
      assertThat(r.fragmentsRemoved()).isEqualTo(10);
      assertThat(attempts).extracting(Attempt::outcome).containsExactly(
          Attempt.Outcome.COMMITTED);
      Map<Long, Long> after = StatementsTest.rowIds(t);
      assertThat(after).hasSize(1080);
      ids.forEach((id, rowId) -> assertThat(after.get(id)).isEqualTo(rowId));
    }
  }

  @Test
  void compactionIsPlannedAgainWhenAConcurrentDeleteChangedAFragmentItRewrote() throws IOException {
    try (LanceTable t = table(); LanceTable other = LanceTable.open(t.uri())) {
      AtomicBoolean done = new AtomicBoolean();
      CompactionResult r = t.compact().targetRowsPerFragment(500)
          .onProgress(once(done, () -> other.delete("id = 5"))).commit();
      assertThat(r.plans()).isEqualTo(2);
      assertThat(r.attempts()).extracting(Attempt::outcome).containsExactly(
          Attempt.Outcome.CONFLICT, Attempt.Outcome.COMMITTED);
      Map<Long, Double> left = StatementsTest.scores(t);
      assertThat(left).hasSize(999).doesNotContainKey(5L);
      assertThat(r.rowsRewritten()).isEqualTo(999);
    }
  }

  @Test
  void aMergeInsertIsPlannedAgainOverAConcurrentInsertOfItsKeyAndUpdatesIt() throws IOException {
    try (LanceTable t = table(); LanceTable other = LanceTable.open(t.uri())) {
      AtomicBoolean done = new AtomicBoolean();
      StatementResult r = t.mergeInsert("id").whenMatchedUpdateAll().from(rows(5000, 20))
          .onProgress(once(done, () -> other.mergeInsert("id").from(rows(5010, 1)).commit()))
          .commit();
      assertThat(r.plans()).isEqualTo(2);
      assertThat(r.attempts().get(0).outcome()).isEqualTo(Attempt.Outcome.CONFLICT);
      assertThat(r.attempts().get(0).detail()).contains("unique-key");
      assertThat(r.rowsInserted()).isEqualTo(19);
      assertThat(r.rowsUpdated()).isEqualTo(1);
      assertThat(StatementsTest.scores(t)).hasSize(1020);
    }
  }

  @Test
  void withoutRePlansTheConflictReachesTheCaller() throws IOException {
    try (LanceTable t = table(); LanceTable other = LanceTable.open(t.uri())) {
      AtomicBoolean done = new AtomicBoolean();
      long before = t.version();
      org.assertj.core.api.Assertions.assertThatThrownBy(() -> t.newDelete().where("id < 500")
          .maxReplans(0).onProgress(once(done, () -> other.delete("id = 7"))).commit())
          .isInstanceOf(dev.lancet.table.RetryableConflictException.class)
          .hasMessageContaining("planned 1 time(s)");
      assertThat(t.version()).isEqualTo(before + 1); // only the other delete landed
    }
  }

  /** A key collision names the keys both writers inserted (exact filters carry their hashes). */
  @Test
  void aMergeInsertOutOfRePlansNamesTheCollidingKeys() throws IOException {
    try (LanceTable t = table(); LanceTable other = LanceTable.open(t.uri())) {
      AtomicBoolean done = new AtomicBoolean();
      long before = t.version();
      Throwable e = org.assertj.core.api.Assertions.catchThrowable(() -> t.mergeInsert("id")
          .whenMatchedUpdateAll().from(rows(5000, 20)).maxReplans(0)
          .onProgress(once(done, () -> other.mergeInsert("id").from(rows(5010, 2)).commit()))
          .commit());
      assertThat(e).isInstanceOf(dev.lancet.table.RetryableConflictException.class)
          .hasMessageContaining("Colliding keys: (5010), (5011).");
      assertThat(((dev.lancet.table.RetryableConflictException) e).collidingKeys())
          .containsExactly("(5010)", "(5011)");
      assertThat(t.version()).isEqualTo(before + 1); // only the other merge insert landed
    }
  }

  /**
   * In a table of the given write form, merge-inserts ids 0-9 (update all) while another writer
   * merge-inserts the 10 ids from {@code otherStart}; returns the first one's result.
   */
  private StatementResult mergeInsertOver(String form, long otherStart, int maxReplans,
      boolean backoff) throws IOException {
    try (LanceTable t = table(); LanceTable other = LanceTable.open(t.uri())) {
      t.newTransaction().setConfig("lancet.write_form", form).commit();
      AtomicBoolean done = new AtomicBoolean();
      StatementResult r = t.mergeInsert("id").whenMatchedUpdateAll().from(rows(0, 10))
          .maxReplans(maxReplans).replanBackoff(backoff).onProgress(once(done, () -> other.mergeInsert("id")
              .whenMatchedUpdateAll().from(rows(otherStart, 10)).commit()))
          .commit();
      assertThat(done).isTrue();
      assertThat(r.rowsUpdated()).isEqualTo(10);
      assertThat(StatementsTest.scores(t)).hasSize(1000);
      return r;
    }
  }

  /**
   * Two merge inserts updating different rows of one fragment (ids 0-9 and 50-59 of fragment 0):
   * the second is rebased over the first, not planned again, in either write form (the legacy
   * one merges the Updates' deletion vectors, the composite one its row-level deletes).
   */
  @org.junit.jupiter.params.ParameterizedTest
  @org.junit.jupiter.params.provider.ValueSource(strings = {"legacy_when_exact", "composite"})
  void mergeInsertsOfDifferentRowsOfOneFragmentBothLandInOnePlan(String form) throws IOException {
    assertThat(mergeInsertOver(form, 50, 0, false).plans()).isEqualTo(1);
  }

  /**
   * The same rows (ids 5-9) updated by both: the loser is planned again (a real collision), at
   * once or after a wait (decision 0024).
   */
  @org.junit.jupiter.params.ParameterizedTest
  @org.junit.jupiter.params.provider.CsvSource({"legacy_when_exact, false", "composite, false",
      "legacy_when_exact, true"})
  void mergeInsertsOfTheSameRowsCollide(String form, boolean backoff) throws IOException {
    StatementResult r = mergeInsertOver(form, 5, 10, backoff);
    assertThat(r.plans()).isEqualTo(2);
    assertThat(r.attempts().get(0).outcome()).isEqualTo(Attempt.Outcome.CONFLICT);
  }
}
