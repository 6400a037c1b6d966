package dev.lancet.core.commit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancet.core.action.Action;
import dev.lancet.core.action.AddDataFile;
import dev.lancet.core.action.AddFragment;
import dev.lancet.core.action.AlterField;
import dev.lancet.core.action.CompositeOperation;
import dev.lancet.core.action.Ref;
import dev.lancet.core.action.RemoveFragment;
import dev.lancet.core.action.SetDeletionFile;
import dev.lancet.core.action.TombstoneFieldData;
import dev.lancet.core.action.UserStep;
import dev.lancet.core.store.LocalObjectStore;
import dev.lancet.core.transaction.TransactionBuilder;
import dev.lancet.format.deletion.DeletionFileFormat;
import dev.lancet.format.deletion.DeletionFileNames;
import dev.lancet.format.deletion.DeletionVector;
import dev.lancet.format.model.DataFile;
import dev.lancet.format.model.DeletionFile;
import dev.lancet.format.model.Field;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Threads committing overlapping work planned on the same version, released together by a
 * barrier: exactly one lands, and every other gets a {@link ConflictingCommitException} that
 * names the winner's version and operation and the coordinate that collided. The table then
 * holds exactly the winner's change (checked against an independent replay and directly).
 */
class ConcurrentOverlappingCommitTest {
  private static final int ROUNDS = 3;
  private static final CommitPolicy POLICY = new CommitPolicy(200, Duration.ofSeconds(60), Duration.ofMillis(1));

  @TempDir Path dir;

  /** Each scenario: the competing transactions (all planned on version 2) and what a loser's collision names. */
  enum Scenario {
    // Deletes of other rows of one fragment merge (RowLevelDeleteConcurrencyTest); of the same row they cannot.
    THREE_DELETES_OF_ONE_ROW("FRAGMENT_DELETIONS: fragment 0: rows [4] were also deleted"),
    TWO_RENAMES_OF_ONE_FIELD("definition of field 1"),
    REMOVE_VS_REWRITE_OF_ONE_FRAGMENT("fragment 0"),
    COMPACTION_VS_DELETE_IN_A_COMPACTED_FRAGMENT("fragment 1");

    final String collision;

    Scenario(String collision) {
      this.collision = collision;
    }
  }

  @ParameterizedTest
  @EnumSource(Scenario.class)
  @Timeout(value = 120, unit = TimeUnit.SECONDS)
  void exactlyOneWinsAndTheLosersAreToldWhy(Scenario scenario) throws Exception {
    for (int round = 0; round < ROUNDS; round++) {
      Path tableDir = dir.resolve(scenario + "-" + round);
      LocalObjectStore store = new LocalObjectStore(tableDir);
      String location = tableDir.toString();
      TortureTables.seed(store, 3, 10);
      // Version 2: a second column "name" (field 1) backed in every fragment.
      new TransactionBuilder(store, location, 1).step("add name", s -> {
        s.addField(0, Field.builder(99, "name", "string").build());
        for (long f = 0; f < 3; f++) {
          s.addDataFile(Ref.committed(f), file(store, "name-" + f + ".lance"), Ref.local(0));
        }
      }).commit();

      List<List<Action>> competitors = competitors(scenario, store);
      Ledger ledger = new Ledger();
      ContractCommitter committer = new ContractCommitter(store, location, POLICY, ledger);
      CyclicBarrier barrier = new CyclicBarrier(competitors.size());
      Map<Integer, ContractCommitter.Outcome> outcomes = new ConcurrentHashMap<>();
      List<Thread> threads = new ArrayList<>();
      for (int i = 0; i < competitors.size(); i++) {
        int index = i;
        CompositeOperation op = new CompositeOperation(List.of(new UserStep(scenario + " #" + i, competitors.get(i))));
        Thread t = new Thread(() -> {
          try {
            barrier.await();
            outcomes.put(index, committer.commit(2, op));
          } catch (Throwable e) {
            ledger.surprise(e);
          }
        });
        threads.add(t);
        t.start();
      }
      for (Thread t : threads) {
        t.join(TimeUnit.SECONDS.toMillis(60));
        assertThat(t.isAlive()).isFalse();
      }

      assertThat(ledger.surprises()).as(ledger.toString()).isEmpty();
      List<Integer> winners = outcomes.entrySet().stream().filter(e -> e.getValue().acknowledged()).map(Map.Entry::getKey).toList();
      assertThat(winners).as("%s round %d: exactly one winner", scenario, round).hasSize(1);
      long winnerVersion = outcomes.get(winners.get(0)).result().orElseThrow().version();
      assertThat(winnerVersion).isEqualTo(3);
      for (Map.Entry<Integer, ContractCommitter.Outcome> e : outcomes.entrySet()) {
        if (e.getKey().equals(winners.get(0))) {
          continue;
        }
        RuntimeException rejection = e.getValue().rejection().orElseThrow();
        assertThat(rejection).as("loser #%d", e.getKey()).isInstanceOf(ConflictingCommitException.class);
        ConflictingCommitException c = (ConflictingCommitException) rejection;
        assertThat(c.version()).as("the winner's version").isEqualTo(winnerVersion);
        assertThat(c.winnerOperation()).isNotBlank();
        assertThat(String.join("; ", c.collisions())).as("collisions").contains(scenario.collision);
        assertThat(c.getMessage()).contains("version " + winnerVersion);
      }

      History history = History.read(store, 1);
      history.checkAgainst(ledger.withAcknowledged(history.entries().get(0).uuid(), 2));
      history.replayAndCompare();
      assertThat(history.entries()).hasSize(2);
      assertThat(history.latest().version()).isEqualTo(3);
      List<Action> winning = competitors.get(winners.get(0));
      assertThat(history.entries().get(1).operation().steps().get(0).actions()).isEqualTo(winning);
    }
  }

  private static List<List<Action>> competitors(Scenario scenario, LocalObjectStore store) throws Exception {
    switch (scenario) {
      case THREE_DELETES_OF_ONE_ROW: {
        List<List<Action>> out = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
          out.add(List.of(deletion(store, 0, 4)));
        }
        return out;
      }
      case TWO_RENAMES_OF_ONE_FIELD:
        return List.of(List.of(AlterField.rename(Ref.committed(1), "label")),
            List.of(AlterField.rename(Ref.committed(1), "title")));
      case REMOVE_VS_REWRITE_OF_ONE_FRAGMENT:
        return List.of(List.of(new RemoveFragment(Ref.committed(0), true)),
            List.of(new TombstoneFieldData(Ref.committed(0), List.of(Ref.committed(1)), true),
                new AddDataFile(Ref.committed(0), file(store, "name-0-v2.lance"), List.of(Ref.committed(1)), true)));
      case COMPACTION_VS_DELETE_IN_A_COMPACTED_FRAGMENT:
        return List.of(List.of(new RemoveFragment(Ref.committed(0), false), new RemoveFragment(Ref.committed(1), false),
                new AddFragment(Ref.local(0), 20, Optional.empty(), Optional.empty(), Optional.empty(), false),
                new AddDataFile(Ref.local(0), dev.lancet.core.TestDataFiles.placed(store,
                    new DataFile("compacted.lance", List.of(-1, -1), List.of(0, 1), 2, 1, 10)),
                    List.of(Ref.committed(0), Ref.committed(1)), false)),
            List.of(deletion(store, 1, 4)));
      default:
        throw new IllegalArgumentException(scenario.toString());
    }
  }

  /** A real deletion file deleting row {@code offset} of {@code fragment}, planned on version 2. */
  private static SetDeletionFile deletion(LocalObjectStore store, long fragment, int offset) throws Exception {
    DeletionVector dv = DeletionVector.of(offset);
    DeletionFile df = new DeletionFile(DeletionFile.Kind.BITMAP, 2, DeletionFileNames.newId(), 1);
    store.put(DeletionFileNames.DIRECTORY + "/" + df.fileName(fragment), DeletionFileFormat.writeBitmap(dv));
    return new SetDeletionFile(fragment, Optional.of(df), true);
  }

  private static DataFile file(LocalObjectStore store, String path) {
    return dev.lancet.core.TestDataFiles.placed(store, new DataFile(path, List.of(-1), List.of(0), 2, 1, 10));
  }
}
