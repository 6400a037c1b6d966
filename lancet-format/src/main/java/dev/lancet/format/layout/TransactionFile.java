package dev.lancet.format.layout;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.InvalidProtocolBufferException;
import dev.lancet.format.FormatException;
import dev.lancet.format.pb.TransactionProtos;
import java.io.IOException;

/**
 * Transaction files: {@code _transactions/{read_version}-{uuid}.txn}, holding the raw
 * protobuf bytes of a Transaction (no prefix, no footer).
 */
public final class TransactionFile {
  public static final String TRANSACTIONS_DIR = "_transactions/";

  private TransactionFile() {}

  /** The file name (relative to {@code _transactions/}) that Lance gives a transaction. */
  public static String fileName(long readVersion, String uuid) {
    return Long.toUnsignedString(readVersion) + "-" + uuid + ".txn";
  }

  public static String path(String fileName) {
    return TRANSACTIONS_DIR + fileName;
  }

  public static byte[] encode(TransactionProtos.Transaction txn) {
    return txn.toByteArray();
  }

  /** Decodes a transaction; {@code where} names the file (or manifest section) for errors. */
  public static TransactionProtos.Transaction decode(byte[] bytes, int offset, int length, String where) {
    try {
      CodedInputStream in = CodedInputStream.newInstance(bytes, offset, length);
      TransactionProtos.Transaction txn = TransactionProtos.Transaction.parseFrom(in);
      in.checkLastTagWas(0);
      return txn;
    } catch (InvalidProtocolBufferException e) {
      throw new FormatException(where, "not a valid Transaction message: " + e.getMessage(), e);
    } catch (IOException e) {
      throw new FormatException(where, "unreadable Transaction message: " + e.getMessage(), e);
    }
  }

  public static TransactionProtos.Transaction decode(byte[] bytes, String where) {
    return decode(bytes, 0, bytes.length, where);
  }
}
