package dev.lancet.core.commit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancet.format.pb.TransactionProtos;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class KnownTransactionsTest {
  private static TransactionProtos.Transaction composite(int padding) {
    return TransactionProtos.Transaction.newBuilder().setReadVersion(1).setUuid(UUID.randomUUID().toString())
        .setCompositeOperation(dev.lancet.format.pb.ActionProtos.CompositeOperation.getDefaultInstance())
        .putTransactionProperties("pad", "x".repeat(padding))
        .build();
  }

  private static String name(TransactionProtos.Transaction t) {
    return "1-" + t.getUuid() + ".txn";
  }

  @Test
  void aWrittenCompositeTransactionIsKnownUntilForgotten() {
    TransactionProtos.Transaction t = composite(10);
    KnownTransactions.written("s3://b/t", name(t), t);

    assertThat(KnownTransactions.get("s3://b/t", name(t))).contains(t);
    // Another table's file of the same name is not this one.
    assertThat(KnownTransactions.get("s3://b/other", name(t))).isEmpty();

    KnownTransactions.forget("s3://b/t", name(t));
    assertThat(KnownTransactions.get("s3://b/t", name(t))).isEmpty();
  }

  @Test
  void legacyAndLargeTransactionsAreNotKept() {
    TransactionProtos.Transaction legacy = TransactionProtos.Transaction.newBuilder().setReadVersion(1)
        .setUuid(UUID.randomUUID().toString())
        .setAppend(TransactionProtos.Transaction.Append.getDefaultInstance()).build();
    TransactionProtos.Transaction large = composite(KnownTransactions.MAX_ENTRY_BYTES);
    KnownTransactions.written("s3://b/t", name(legacy), legacy);
    KnownTransactions.written("s3://b/t", name(large), large);

    assertThat(KnownTransactions.get("s3://b/t", name(legacy))).isEmpty();
    assertThat(KnownTransactions.get("s3://b/t", name(large))).isEmpty();
  }

  @Test
  void theOldestAreDroppedBeyondTheBounds() {
    TransactionProtos.Transaction first = composite(10);
    KnownTransactions.written("s3://b/bounds", name(first), first);
    for (int i = 0; i < KnownTransactions.MAX_ENTRIES; i++) {
      TransactionProtos.Transaction t = composite(10);
      KnownTransactions.written("s3://b/bounds", name(t), t);
    }
    assertThat(KnownTransactions.get("s3://b/bounds", name(first))).isEmpty();

    // The byte budget: entries near the per-entry limit push out the oldest long before the count does.
    TransactionProtos.Transaction big = composite(KnownTransactions.MAX_ENTRY_BYTES - 100);
    KnownTransactions.written("s3://b/bytes", name(big), big);
    for (long n = 0; n <= KnownTransactions.MAX_BYTES / KnownTransactions.MAX_ENTRY_BYTES; n++) {
      TransactionProtos.Transaction t = composite(KnownTransactions.MAX_ENTRY_BYTES - 100);
      KnownTransactions.written("s3://b/bytes", name(t), t);
    }
    assertThat(KnownTransactions.get("s3://b/bytes", name(big))).isEmpty();
  }

  @Test
  void offMeansNothingIsKnown() {
    TransactionProtos.Transaction t = composite(10);
    KnownTransactions.written("s3://b/t", name(t), t);
    System.setProperty("lancet.knownTransactions", "false");
    try {
      assertThat(KnownTransactions.get("s3://b/t", name(t))).isEmpty();
    } finally {
      System.clearProperty("lancet.knownTransactions");
    }
    assertThat(KnownTransactions.get("s3://b/t", name(t))).contains(t);
  }
}
