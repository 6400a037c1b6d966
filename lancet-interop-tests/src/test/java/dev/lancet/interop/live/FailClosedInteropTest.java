package dev.lancet.interop.live;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.google.protobuf.ByteString;
import com.google.protobuf.UnknownFieldSet;
import dev.lancet.core.Table;
import dev.lancet.core.commit.CommitResult;
import dev.lancet.core.commit.ConflictingCommitException;
import dev.lancet.core.commit.DamagedTableException;
import dev.lancet.core.commit.IncompatibleTransactionException;
import dev.lancet.core.operation.Append;
import dev.lancet.core.version.Snapshot;
import dev.lancet.format.layout.ManifestFile;
import dev.lancet.format.layout.TransactionFile;
import dev.lancet.format.model.DataFile;
import dev.lancet.format.model.Fragment;
import dev.lancet.format.model.Manifest;
import dev.lancet.format.pb.TransactionProtos;
import dev.lancet.interop.lance.LanceFixtures;
import dev.lancet.interop.lance.LanceOracle;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Fail closed: when a version committed after our read version carries a transaction Lancet
 * cannot decode, Lancet cannot check its commit against it, so the commit fails with a typed
 * error naming that version (and the transaction file, when that is what cannot be read). The
 * table itself stays readable: Lancet opens it and reads the latest version, lance-core opens
 * and scans it, and a commit planned on the new version goes through.
 *
 * <p>Two kinds of undecodable transaction, each in a version crafted as a foreign writer would
 * publish it, with the same content as the version before. A transaction from the future is
 * only undecodable: a commit planned on that version goes on top of it. A garbage one is damage:
 * no commit goes on top of it ({@link DamagedTableException}, issue 10).
 *
 * <ul>
 *   <li>{@code unknown-operation}: a well-formed Transaction whose operation is a field number no
 *       Lance version defines (as a future Lance would write), in its {@code .txn} file.
 *   <li>{@code garbage-txn}: no inline copy, and a {@code .txn} file of bytes that are not a
 *       Transaction.
 * </ul>
 */
class FailClosedInteropTest {
  /** A field number in Transaction that no operation uses. */
  private static final int UNKNOWN_OPERATION_FIELD = 150;

  @TempDir Path tmp;

  @ParameterizedTest
  @ValueSource(strings = {"unknown-operation", "garbage-txn"})
  void anUndecodableConcurrentTransactionFailsOurCommitButNotTheTable(String kind) throws Exception {
    Path dir = tmp.resolve("t");
    LanceFixtures.append(dir, LanceFixtures.SIMPLE_SCHEMA, 0, 100);
    long read = LanceOracle.latestVersion(dir);
    List<LanceOracle.Row> rows = LanceOracle.rows(dir, read);

    try (Table table = Table.open(dir.toString())) {
      DataFile layout = table.latest().manifest().fragments().get(0).files().get(0);
      DataFile file = LiveTable.writeRows(dir, List.of(500L, 501L), names(500, 501), layout);
      Append ours = new Append(List.of(Fragment.of(0, 2, List.of(file))));

      // A foreign writer publishes the next version while we are planning.
      String badFile = craft(table, kind);
      long bad = read + 1;

      Throwable e = catchThrowable(() -> table.newLegacyTransaction(ours).readVersion(read).commit());
      assertThat(e).as("commit over version %d (%s)", bad, kind).hasMessageContaining("version " + bad);
      if (kind.equals("garbage-txn")) {
        // The latest version's history is damaged: no commit goes on top of it (issue 10).
        assertThat(e).isInstanceOf(DamagedTableException.class).hasMessageContaining(badFile);
      } else {
        assertThat(e).isInstanceOfAny(ConflictingCommitException.class, IncompatibleTransactionException.class);
        // The transaction's uuid, which its .txn file name carries.
        String uuid = badFile.substring(badFile.indexOf('-') + 1, badFile.length() - ".txn".length());
        assertThat(e).hasMessageContaining("field " + UNKNOWN_OPERATION_FIELD).hasMessageContaining(uuid);
      }
      System.out.println("fail closed (" + kind + "): " + e.getClass().getSimpleName() + ": " + e.getMessage());

      // Nothing was published, and the table still opens and reads, in both libraries.
      Snapshot latest = table.latest();
      assertThat(latest.version()).isEqualTo(bad);
      assertThat(latest.manifest().liveRows()).isEqualTo(100);
      try (Table reopened = Table.open(dir.toString())) {
        assertThat(reopened.latest().version()).isEqualTo(bad);
        assertThat(reopened.versions()).hasSize((int) bad);
      }
      assertThat(LanceOracle.latestVersion(dir)).isEqualTo(bad);
      assertThat(LanceOracle.countRows(dir, bad)).isEqualTo(100);
      assertThat(LanceOracle.rows(dir, bad)).isEqualTo(rows);

      if (kind.equals("garbage-txn")) {
        // Planned on the damaged version itself, the append still does not publish on top of it.
        assertThat(catchThrowable(() -> table.newLegacyTransaction(ours).readVersion(bad).commit()))
            .isInstanceOf(DamagedTableException.class).hasMessageContaining(badFile);
        assertThat(table.latest().version()).isEqualTo(bad);
        assertThat(LanceOracle.countRows(dir, bad)).isEqualTo(100);
        return;
      }
      // Planned on the new version, the same append has no unknown winner to check against.
      CommitResult again = table.newLegacyTransaction(ours).readVersion(bad).commit();
      assertThat(again.version()).isEqualTo(bad + 1);
    }
    assertThat(LanceOracle.countRows(dir, read + 2)).isEqualTo(102);
    assertThat(LanceOracle.countRows(dir, read + 2, "id >= 500")).isEqualTo(2);
    // And lance-core commits on top.
    LanceFixtures.append(dir, LanceFixtures.SIMPLE_SCHEMA, 600, 10);
    assertThat(LanceOracle.countRows(dir, read + 3)).isEqualTo(112);
  }

  /** Publishes version latest + 1 with latest's content and an undecodable transaction. */
  private static String craft(Table table, String kind) throws Exception {
    Snapshot latest = table.latest();
    Manifest next = latest.manifest().toBuilder().version(latest.version() + 1)
        .timestamp(Optional.of(Instant.now())).build();
    String uuid = UUID.randomUUID().toString();
    byte[] bytes;
    if (kind.equals("unknown-operation")) {
      TransactionProtos.Transaction txn = TransactionProtos.Transaction.newBuilder()
          .setReadVersion(latest.version())
          .setUuid(uuid)
          .setUnknownFields(UnknownFieldSet.newBuilder()
              .addField(UNKNOWN_OPERATION_FIELD, UnknownFieldSet.Field.newBuilder()
                  .addLengthDelimited(ByteString.copyFromUtf8("an operation from the future")).build())
              .build())
          .build();
      assertThat(txn.getOperationCase()).isEqualTo(TransactionProtos.Transaction.OperationCase.OPERATION_NOT_SET);
      bytes = txn.toByteArray();
    } else {
      // Field 1 announced as 127 bytes long, then 7 bytes: truncated garbage.
      bytes = new byte[] {0x0a, 0x7f, 'g', 'a', 'r', 'b', 'a', 'g', 'e'};
    }
    // Only in the .txn file: lance-core 7.0.0 decodes an inline transaction when it opens a
    // version and refuses one without a known operation, so a writer must not inline it.
    String name = TransactionFile.fileName(latest.version(), uuid);
    table.store().put(TransactionFile.path(name), bytes);
    Manifest withFile = next.toBuilder().transactionFile(name).build();
    table.store().putIfAbsent(latest.entry().naming().path(next.version()),
        ManifestFile.write(withFile, latest.indices(), Optional.empty()));
    return name;
  }

  private static List<String> names(long... ids) {
    List<String> out = new ArrayList<>();
    for (long id : ids) {
      out.add(LanceFixtures.name(id));
    }
    return out;
  }
}
