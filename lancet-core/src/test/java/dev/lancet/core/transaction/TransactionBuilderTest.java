package dev.lancet.core.transaction;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lancet.core.Table;
import dev.lancet.core.action.ActionCodec;
import dev.lancet.core.action.Ref;
import dev.lancet.core.apply.ApplyException;
import dev.lancet.core.commit.CommitConflictException;
import dev.lancet.core.commit.CommitResult;
import dev.lancet.core.store.LocalObjectStore;
import dev.lancet.core.version.Snapshot;
import dev.lancet.format.layout.ManifestFile;
import dev.lancet.format.layout.ManifestNaming;
import dev.lancet.format.model.DataFile;
import dev.lancet.format.model.DataStorageFormat;
import dev.lancet.format.model.Field;
import dev.lancet.format.model.Fragment;
import dev.lancet.format.model.Manifest;
import dev.lancet.format.model.Schema;
import dev.lancet.format.pb.TransactionProtos;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TransactionBuilderTest {
  @TempDir Path dir;
  Table table;

  @BeforeEach
  void createTable() throws Exception {
    Manifest v1 = Manifest.builder()
        .version(1)
        .schema(new Schema(List.of(Field.builder(0, "id", "int64").nullable(false).build()), Map.of()))
        .fragments(List.of(Fragment.of(0, 10, List.of(new DataFile("a.lance", List.of(0), List.of(0), 2, 1, 100)))))
        .maxFragmentId(OptionalLong.of(0))
        .dataFormat(Optional.of(new DataStorageFormat("lance", "2.1")))
        .build();
    LocalObjectStore store = new LocalObjectStore(dir);
    store.put(ManifestNaming.V2.path(1), ManifestFile.write(v1, List.of(), Optional.empty()));
    table = Table.open(dir.toString());
  }

  private DataFile file(String name) {
    return dev.lancet.core.TestDataFiles.placed(table.store(), new DataFile(name, List.of(), List.of(0), 2, 1, 50));
  }

  @Test
  void addColumnWithDataCommitsAndReadsBack() {
    CommitResult r = table.newTransaction()
        .step("add column b", s -> s
            .addField(0, Field.builder(0, "b", "int32").build())
            .addDataFile(Ref.committed(0), file("b-0.lance"), Ref.local(0)))
        .commit();

    assertThat(r.version()).isEqualTo(2);
    Snapshot v2 = table.latest();
    assertThat(v2.manifest().schema().fields()).extracting(Field::name).containsExactly("id", "b");
    assertThat(v2.manifest().schema().fields().get(1).id()).isEqualTo(1);
    assertThat(v2.manifest().fragment(0).orElseThrow().files().get(1).fields()).containsExactly(1);
    TransactionProtos.Transaction txn = v2.transaction().orElseThrow();
    assertThat(txn.getUuid()).isEqualTo(r.transactionUuid());
    assertThat(txn.getReadVersion()).isEqualTo(1);
    assertThat(ActionCodec.decode(txn.getCompositeOperation()).steps().get(0).description())
        .isEqualTo("add column b");
  }

  @Test
  void compositeTransactionsAreNotInlined() throws Exception {
    table.newTransaction().step("config", s -> s.setConfig("k", "v")).commit();
    Snapshot v2 = table.latest();
    assertThat(v2.manifest().transactionSection()).isEmpty();
    assertThat(v2.manifest().transactionFile()).endsWith(".txn");
    assertThat(v2.manifest().config()).containsEntry("k", "v");
  }

  @Test
  void applyPreviewsWithoutPublishing() {
    var preview = table.newTransaction().step("append", s -> s
        .addFragment(0, 5).addDataFile(Ref.local(0), file("n.lance"), Ref.committed(0))).apply();
    assertThat(preview.manifest().version()).isEqualTo(2);
    assertThat(preview.manifest().fragments()).extracting(Fragment::id).containsExactly(0L, 1L);
    assertThat(table.versions()).hasSize(1);
  }

  @Test
  void aStaleButDisjointCommitIsRebased() {
    TransactionBuilder stale = table.newTransaction().step("a", s -> s.setConfig("a", "1"));
    table.newTransaction().step("b", s -> s.setConfig("b", "1")).commit();
    CommitResult r = stale.commit();
    assertThat(r.version()).isEqualTo(3);
    assertThat(table.latest().manifest().config()).containsEntry("a", "1").containsEntry("b", "1");
    assertThat(table.latest().transaction().orElseThrow().getReadVersion()).isEqualTo(1);
  }

  @Test
  void aStaleConflictingCommitNamesTheWinnerAndTheCollision() {
    TransactionBuilder stale = table.newTransaction().step("a", s -> s.setConfig("k", "mine"));
    table.newTransaction().step("b", s -> s.setConfig("k", "theirs")).commit();
    assertThatThrownBy(stale::commit)
        .isInstanceOf(dev.lancet.core.commit.ConflictingCommitException.class)
        .hasMessageContaining("version 2 (CompositeOperation)")
        .hasMessageContaining("k")
        .satisfies(e -> assertThat(((CommitConflictException) e).version()).isEqualTo(2));
    assertThat(table.latest().manifest().config()).containsEntry("k", "theirs");
  }

  @Test
  void concurrentAppendersAllLand() throws Exception {
    int writers = 4;
    int each = 5;
    java.util.concurrent.CyclicBarrier start = new java.util.concurrent.CyclicBarrier(writers);
    java.util.List<java.util.concurrent.Future<java.util.List<Long>>> results = new java.util.ArrayList<>();
    java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(writers);
    try {
      for (int w = 0; w < writers; w++) {
        int writer = w;
        results.add(pool.submit(() -> {
          start.await(30, java.util.concurrent.TimeUnit.SECONDS);
          java.util.List<Long> versions = new java.util.ArrayList<>();
          try (Table t = Table.open(dir.toString())) {
            for (int i = 0; i < each; i++) {
              String name = "w" + writer + "-" + i + ".lance";
              versions.add(t.newTransaction().step("append " + name, s -> s
                  .addFragment(0, 3).addDataFile(Ref.local(0), file(name), Ref.committed(0))).commit().version());
            }
          }
          return versions;
        }));
      }
      java.util.Set<Long> acknowledged = new java.util.HashSet<>();
      for (var f : results) {
        acknowledged.addAll(f.get(120, java.util.concurrent.TimeUnit.SECONDS));
      }
      // Independent model: every acknowledged commit is a distinct version, and the table holds
      // the original fragment plus one per acknowledged append, each with its own file.
      assertThat(acknowledged).hasSize(writers * each);
      Manifest latest = table.latest().manifest();
      assertThat(latest.version()).isEqualTo(1 + writers * each);
      assertThat(latest.fragments()).hasSize(1 + writers * each);
      assertThat(latest.fragments().stream().flatMap(f -> f.files().stream()).map(DataFile::path).distinct())
          .hasSize(1 + writers * each);
      assertThat(latest.liveRows()).isEqualTo(10 + 3L * writers * each);
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void anInvalidActionCommitsNothing() {
    assertThatThrownBy(() -> table.newTransaction()
        .step("fine", s -> s.setConfig("x", "y"))
        .step("broken", s -> s.removeFragment(Ref.committed(7)))
        .commit())
        .isInstanceOf(ApplyException.class)
        .hasMessageContaining("step 2 ('broken'), action 1 (RemoveFragment)")
        .hasMessageContaining("fragment 7");
    assertThat(table.versions()).hasSize(1);
    assertThat(dir.resolve("_transactions")).doesNotExist();
  }
}
