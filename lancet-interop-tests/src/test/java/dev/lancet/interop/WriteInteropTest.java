package dev.lancet.interop;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancet.core.Table;
import dev.lancet.core.commit.VersionPublisher;
import dev.lancet.core.version.Snapshot;
import dev.lancet.format.model.Manifest;
import dev.lancet.format.pb.CommonProtos;
import dev.lancet.format.pb.TransactionProtos;
import dev.lancet.interop.lance.LanceFixtures;
import dev.lancet.interop.lance.LanceOracle;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A version written by Lancet on a table real Lance created opens in lance-core with the same
 * rows and values, and lance-core can keep committing on top of it.
 */
class WriteInteropTest {
  @TempDir Path tmp;

  @ParameterizedTest
  @ValueSource(strings = {"storage-2.1", "stable-row-ids-on", "deletions", "scalar-index", "manifest-v1"})
  void lancetUpdateConfigCommitOpensInLanceCore(String fixture) throws Exception {
    Path dir = SharedFixtures.copy(fixture, tmp);
    long before = LanceOracle.latestVersion(dir);
    var rowsBefore = LanceOracle.rows(dir, before);
    var checksumsBefore = LanceOracle.columnChecksums(dir, before);

    try (Table table = Table.open(dir.toString())) {
      Snapshot latest = table.latest();
      Manifest read = latest.manifest();
      Map<String, String> config = new HashMap<>(read.config());
      config.put("lancet.written-by", "lancet");
      Manifest next = read.toBuilder().version(read.version() + 1).config(config).build();
      TransactionProtos.Transaction txn = TransactionProtos.Transaction.newBuilder()
          .setReadVersion(read.version())
          .setUuid(UUID.randomUUID().toString())
          .setUpdateConfig(TransactionProtos.Transaction.UpdateConfig.newBuilder()
              .setConfigUpdates(CommonProtos.UpdateMap.newBuilder().addUpdateEntries(
                  CommonProtos.UpdateMapEntry.newBuilder().setKey("lancet.written-by").setValue("lancet"))))
          .build();
      new VersionPublisher(table.store()).publish(next, latest.indices(), txn, latest.entry().naming());
    }

    long after = LanceOracle.latestVersion(dir);
    assertThat(after).isEqualTo(before + 1);
    LanceOracle.TableSnapshot lance = LanceOracle.snapshot(dir, after);
    assertThat(lance.config()).containsEntry("lancet.written-by", "lancet");
    assertThat(lance.transaction().orElseThrow().operation()).containsIgnoringCase("UpdateConfig");
    assertThat(LanceOracle.rows(dir, after)).isEqualTo(rowsBefore);
    assertThat(LanceOracle.columnChecksums(dir, after)).isEqualTo(checksumsBefore);
    assertThat(lance.indices()).hasSameSizeAs(LanceOracle.snapshot(dir, before).indices());

    // lance-core keeps writing on top of Lancet's version.
    long appended = LanceFixtures.append(dir, schemaOf(dir), 1_000_000, 10);
    assertThat(appended).isEqualTo(after + 1);
    assertThat(LanceOracle.snapshot(dir, appended).rowCount()).isEqualTo(rowsBefore.size() + 10);
    try (Table table = Table.open(dir.toString())) {
      assertThat(table.latest().manifest().liveRows()).isEqualTo(rowsBefore.size() + 10);
      assertThat(table.latest().manifest().config()).containsEntry("lancet.written-by", "lancet");
    }
  }

  private static org.apache.arrow.vector.types.pojo.Schema schemaOf(Path dir) {
    return LanceOracle.columnNames(dir, LanceOracle.latestVersion(dir)).size() == 2
        ? LanceFixtures.SIMPLE_SCHEMA : LanceFixtures.FULL_SCHEMA;
  }

  @org.junit.jupiter.api.Test
  void tableCreatedByLancetOpensAndAppendsInLanceCore() throws Exception {
    Path dir = tmp.resolve("created-by-lancet");
    // Created with Lancet's API: a legacy Overwrite, then a composite config update.
    dev.lancet.format.model.Schema schema = new dev.lancet.format.model.Schema(List.of(
        dev.lancet.format.model.Field.builder(0, "id", "int64").nullable(false).build(),
        dev.lancet.format.model.Field.builder(1, "name", "string").build()), Map.of());
    try (Table created = Table.create(dir.toString(), new dev.lancet.core.store.LocalObjectStore(dir),
        new dev.lancet.core.operation.Overwrite(List.of(), schema, Map.of(), List.of()),
        new dev.lancet.format.model.DataStorageFormat("lance", "2.1"))) {
      created.newTransaction().step("mark", s -> s.setConfig("lancet.demo", "true")).commit();
    }

    LanceOracle.TableSnapshot lance = LanceOracle.snapshot(dir);
    assertThat(lance.version()).isEqualTo(2);
    assertThat(lance.rowCount()).isZero();
    assertThat(lance.fields()).extracting(LanceOracle.FieldView::name).containsExactly("id", "name");
    assertThat(lance.config()).containsEntry("lancet.demo", "true");

    long appended = LanceFixtures.append(dir, LanceFixtures.SIMPLE_SCHEMA, 0, 25);
    assertThat(appended).isEqualTo(3);
    assertThat(LanceOracle.snapshot(dir).rowCount()).isEqualTo(25);
    try (Table table = Table.open(dir.toString())) {
      assertThat(table.latest().manifest().liveRows()).isEqualTo(25);
    }
  }
}
