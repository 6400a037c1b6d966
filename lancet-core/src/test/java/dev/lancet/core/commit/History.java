package dev.lancet.core.commit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancet.core.action.ActionCodec;
import dev.lancet.core.action.CompositeOperation;
import dev.lancet.core.store.ObjectStore;
import dev.lancet.core.version.Snapshot;
import dev.lancet.core.version.VersionEntry;
import dev.lancet.core.version.Versions;
import dev.lancet.format.model.Manifest;
import dev.lancet.format.pb.TransactionProtos;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A table's history read back from storage, version by version: each version's manifest and
 * the transaction recorded for it (its .txn file). The reliability tests replay it through a
 * {@link TableModel} and compare it with what writers were told.
 */
public record History(Manifest seed, List<Entry> entries) {

  /** One version after the seed: its manifest and the transaction that produced it. */
  public record Entry(long version, Manifest manifest, TransactionProtos.Transaction transaction) {
    public String uuid() {
      return transaction.getUuid();
    }

    public CompositeOperation operation() {
      assertThat(transaction.hasCompositeOperation())
          .as("version %d records a composite operation", version).isTrue();
      return ActionCodec.decode(transaction.getCompositeOperation());
    }
  }

  public History {
    entries = List.copyOf(entries);
  }

  /** Reads every version after {@code seedVersion}, in version order, with no gap. */
  public static History read(ObjectStore store, long seedVersion) throws IOException {
    List<VersionEntry> versions = Versions.list(store);
    Manifest seed = null;
    List<Entry> entries = new ArrayList<>();
    long expected = seedVersion;
    for (VersionEntry v : versions) {
      if (v.version() < seedVersion) {
        continue;
      }
      assertThat(v.version()).as("versions are consecutive").isEqualTo(expected);
      expected++;
      Snapshot s = Snapshot.load(store, v);
      if (v.version() == seedVersion) {
        seed = s.manifest();
        continue;
      }
      entries.add(new Entry(v.version(), s.manifest(),
          s.transaction().orElseThrow(() -> new AssertionError("version " + v.version() + " records no transaction"))));
    }
    assertThat(seed).as("seed version %d exists", seedVersion).isNotNull();
    return new History(seed, entries);
  }

  public Manifest latest() {
    return entries.isEmpty() ? seed : entries.get(entries.size() - 1).manifest();
  }

  /** Each transaction uuid and the versions it appears at. */
  public Map<String, List<Long>> versionsByUuid() {
    Map<String, List<Long>> out = new HashMap<>();
    for (Entry e : entries) {
      out.computeIfAbsent(e.uuid(), u -> new ArrayList<>()).add(e.version());
    }
    return out;
  }

  /**
   * Replays every transaction through an independent {@link TableModel} and checks that each
   * version's manifest, projected onto the model, equals the replayed state. Returns the
   * final model state.
   */
  public ModelState replayAndCompare() {
    TableModel model = TableModel.startingFrom(seed);
    for (Entry e : entries) {
      model.replay(e.operation(), e.version());
      assertThat(ModelState.of(e.manifest()))
          .as("version %d (%s, read version %d): manifest vs the model's replay of the history",
              e.version(), e.uuid(), e.transaction().getReadVersion())
          .isEqualTo(model.state());
    }
    return model.state();
  }

  /**
   * The ledger's view and the history agree: every acknowledged uuid appears exactly once, at
   * the acknowledged version, and no transaction appears that was not acknowledged (a writer
   * whose outcome was unknown re-submitted until it learned the answer).
   */
  public void checkAgainst(Ledger ledger) {
    Map<String, List<Long>> byUuid = versionsByUuid();
    for (Map.Entry<String, Long> ack : ledger.acknowledged().entrySet()) {
      assertThat(byUuid.get(ack.getKey()))
          .as("acknowledged transaction %s appears exactly once, at version %d", ack.getKey(), ack.getValue())
          .containsExactly(ack.getValue());
    }
    for (Map.Entry<String, List<Long>> e : byUuid.entrySet()) {
      assertThat(ledger.acknowledged())
          .as("transaction %s at version(s) %s was committed but never acknowledged%s", e.getKey(), e.getValue(),
              ledger.everUnknown().contains(e.getKey()) ? " (its writer saw CommitStateUnknown)" : "")
          .containsKey(e.getKey());
    }
    assertThat(entries).as("one version per acknowledged commit").hasSize(ledger.acknowledged().size());
  }
}
