package dev.lancet.core.commit;

import dev.lancet.format.pb.TransactionProtos;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The transactions this process wrote to {@code .txn} files on stores where every read is a
 * network round trip ({@link dev.lancet.core.store.ObjectStore#overlapsRequests()}), kept so that
 * a later commit in the same process does not read back what it wrote: the readability check
 * of the latest version (decision 0015) and the conflict check against a winner take the
 * transaction from here when its manifest names a file this process wrote.
 *
 * <p>What is proven, and no more: the store acknowledged a write of exactly these bytes (the
 * encoding of this message) under this name; a write is atomic (readers see the old or the new
 * object); a {@code .txn} name carries the transaction's uuid and read version, and no Lancet
 * writer replaces a landed {@code .txn} file. So the file holds this transaction unless it was
 * removed (which a reader tolerates anyway, decision 0007) or changed outside the protocol
 * after the write. The last is not seen by this process, and is seen by every other one; it is
 * the same blind spot every writer has for damage done to a version's {@code .txn} after the
 * version above it was published. A write that fails, or whose outcome is unknown, forgets the
 * entry before it starts; a removed file is forgotten.
 *
 * <p>Only composite transactions are kept (a legacy one is inline in its manifest and never read
 * from the {@code .txn} file), of at most {@value #MAX_ENTRY_BYTES} bytes each, at most
 * {@value #MAX_ENTRIES} of them and {@value #MAX_BYTES} bytes in all, least recently used first
 * out. {@code -Dlancet.knownTransactions=false} turns it off (every check reads the file, as a
 * writer in another process does).
 */
final class KnownTransactions {
  static final int MAX_ENTRIES = 1024;
  static final long MAX_BYTES = 8L << 20;
  static final int MAX_ENTRY_BYTES = 256 << 10;

  private record Known(TransactionProtos.Transaction transaction, int bytes) {}

  private static final Map<String, Known> KNOWN = new LinkedHashMap<>(64, 0.75f, true);
  private static long bytes;

  private KnownTransactions() {}

  static boolean enabled() {
    return !"false".equalsIgnoreCase(System.getProperty("lancet.knownTransactions"));
  }

  private static String key(String location, String txnFile) {
    return location + "\n" + txnFile;
  }

  /** Before a write of {@code txnFile} starts: until it is acknowledged, its content is not known. */
  static synchronized void forget(String location, String txnFile) {
    Known gone = KNOWN.remove(key(location, txnFile));
    if (gone != null) {
      bytes -= gone.bytes();
    }
  }

  /** After the store acknowledged the write of {@code transaction} to {@code txnFile}. */
  static synchronized void written(String location, String txnFile, TransactionProtos.Transaction transaction) {
    forget(location, txnFile);
    int size = transaction.getSerializedSize();
    if (!enabled() || VersionPublisher.inlineCopy(transaction).isPresent() || size > MAX_ENTRY_BYTES) {
      return;
    }
    KNOWN.put(key(location, txnFile), new Known(transaction, size));
    bytes += size;
    Iterator<Known> oldest = KNOWN.values().iterator();
    while (KNOWN.size() > MAX_ENTRIES || bytes > MAX_BYTES) {
      bytes -= oldest.next().bytes();
      oldest.remove();
    }
  }

  /** The transaction this process wrote to {@code txnFile} of the table at {@code location}, if it is known. */
  static synchronized Optional<TransactionProtos.Transaction> get(String location, String txnFile) {
    if (!enabled()) {
      return Optional.empty();
    }
    Known known = KNOWN.get(key(location, txnFile));
    return known == null ? Optional.empty() : Optional.of(known.transaction());
  }
}
