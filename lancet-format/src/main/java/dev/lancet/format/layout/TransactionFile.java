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

  /** The first field number of the Transaction's operation oneof. */
  private static final int FIRST_OPERATION_FIELD = 100;

  /**
   * The operation's name as the oneof arm names it ("Append", "UpdateMemWalState",
   * "CompositeOperation"); an arm this build does not know shows its field number.
   */
  public static String operationName(TransactionProtos.Transaction t) {
    if (t.getOperationCase() != TransactionProtos.Transaction.OperationCase.OPERATION_NOT_SET) {
      return upperCamel(t.getOperationCase().name());
    }
    for (int number : t.getUnknownFields().asMap().keySet()) {
      if (number >= FIRST_OPERATION_FIELD && number < 200) {
        return "unknown operation (field " + number + ")";
      }
    }
    return "no operation";
  }

  /** UPPER_SNAKE to UpperCamel: UPDATE_MEM_WAL_STATE to UpdateMemWalState. */
  public static String upperCamel(String upperSnake) {
    StringBuilder sb = new StringBuilder();
    for (String part : upperSnake.split("_")) {
      if (!part.isEmpty()) {
        sb.append(part.charAt(0)).append(part.substring(1).toLowerCase(java.util.Locale.ROOT));
      }
    }
    return sb.toString();
  }

  public static TransactionProtos.Transaction decode(byte[] bytes, String where) {
    return decode(bytes, 0, bytes.length, where);
  }
}
