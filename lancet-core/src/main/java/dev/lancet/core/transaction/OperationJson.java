package dev.lancet.core.transaction;

import com.google.protobuf.Descriptors;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.util.JsonFormat;
import dev.lancet.core.action.InvalidActionException;
import dev.lancet.format.pb.ActionProtos;
import dev.lancet.format.pb.CommonProtos;
import dev.lancet.format.pb.FileProtos;
import dev.lancet.format.pb.RowIdProtos;
import dev.lancet.format.pb.TableProtos;
import dev.lancet.format.pb.TransactionProtos;

/**
 * Reads an operation written as protobuf JSON: either a whole {@code Transaction} (with its
 * uuid, read version and operation) or a bare {@code CompositeOperation}.
 */
public final class OperationJson {
  private static final JsonFormat.TypeRegistry TYPES = registry();

  private OperationJson() {}

  /** A transaction read from JSON; a bare composite operation gets read version 0 and no uuid. */
  public static TransactionProtos.Transaction parse(String json, String source) {
    TransactionProtos.Transaction.Builder txn = TransactionProtos.Transaction.newBuilder();
    try {
      JsonFormat.parser().usingTypeRegistry(TYPES).merge(json, txn);
      if (txn.getOperationCase() == TransactionProtos.Transaction.OperationCase.OPERATION_NOT_SET) {
        throw new InvalidActionException(source + ": the Transaction names no operation");
      }
      return txn.build();
    } catch (InvalidProtocolBufferException asTransaction) {
      ActionProtos.CompositeOperation.Builder op = ActionProtos.CompositeOperation.newBuilder();
      try {
        JsonFormat.parser().usingTypeRegistry(TYPES).merge(json, op);
      } catch (InvalidProtocolBufferException asOperation) {
        throw new InvalidActionException(source + " is neither a Transaction nor a "
            + "CompositeOperation in protobuf JSON: as a Transaction, " + asTransaction.getMessage()
            + "; as a CompositeOperation, " + asOperation.getMessage());
      }
      return TransactionProtos.Transaction.newBuilder().setCompositeOperation(op).build();
    }
  }

  /** Every message Lancet defines, so that Any fields naming them parse and print. */
  private static JsonFormat.TypeRegistry registry() {
    JsonFormat.TypeRegistry.Builder b = JsonFormat.TypeRegistry.newBuilder();
    for (Descriptors.FileDescriptor f : new Descriptors.FileDescriptor[] {
        TableProtos.getDescriptor(), FileProtos.getDescriptor(), TransactionProtos.getDescriptor(),
        ActionProtos.getDescriptor(), CommonProtos.getDescriptor(), RowIdProtos.getDescriptor()}) {
      for (Descriptors.Descriptor d : f.getMessageTypes()) {
        b.add(d);
      }
    }
    return b.build();
  }
}
