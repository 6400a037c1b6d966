package dev.lancet.core.transaction;

import com.google.protobuf.Descriptors;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.util.JsonFormat;
import com.google.gson.stream.JsonReader;
import com.google.gson.stream.JsonToken;
import dev.lancet.core.action.InvalidActionException;
import dev.lancet.format.Texts;
import dev.lancet.format.pb.ActionProtos;
import dev.lancet.format.pb.CommonProtos;
import dev.lancet.format.pb.FileProtos;
import dev.lancet.format.pb.RowIdProtos;
import dev.lancet.format.pb.TableProtos;
import dev.lancet.format.pb.TransactionProtos;
import java.io.IOException;
import java.io.StringReader;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.Set;

/**
 * Reads an operation written as protobuf JSON: either a whole {@code Transaction} (with its
 * uuid, read version and operation) or a bare {@code CompositeOperation}.
 *
 * <p>The text is first walked with a streaming reader that keeps only the keys of the open
 * objects: strict JSON, no key twice in one object (protobuf's parser keeps the last silently),
 * at most {@value #MAX_DEPTH} levels of nesting (the deepest operation Lancet's protos describe
 * is about a dozen). Errors are one bounded line naming the JSON path.
 */
public final class OperationJson {
  private static final JsonFormat.TypeRegistry TYPES = registry();
  /** Deepest nesting of objects and arrays accepted. */
  public static final int MAX_DEPTH = 64;
  private static final int MESSAGE_CHARS = 300;

  private OperationJson() {}

  /** A transaction read from JSON; a bare composite operation gets read version 0 and no uuid. */
  public static TransactionProtos.Transaction parse(String json, String source) {
    if (json.isBlank()) {
      throw new InvalidActionException(source + " is empty; it must hold a Transaction or a "
          + "CompositeOperation in protobuf JSON");
    }
    checkStructure(json, source);
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
            + "CompositeOperation in protobuf JSON: as a Transaction, "
            + Texts.bounded(asTransaction.getMessage(), MESSAGE_CHARS) + "; as a CompositeOperation, "
            + Texts.bounded(asOperation.getMessage(), MESSAGE_CHARS));
      }
      return TransactionProtos.Transaction.newBuilder().setCompositeOperation(op).build();
    }
  }

  /** Strict JSON, no duplicate key in an object, nesting at most {@link #MAX_DEPTH} deep. */
  static void checkStructure(String json, String source) {
    JsonReader reader = new JsonReader(new StringReader(json));
    reader.setLenient(false);
    Deque<Set<String>> open = new ArrayDeque<>();
    int depth = 0;
    try {
      do {
        JsonToken token = reader.peek();
        switch (token) {
          case BEGIN_OBJECT -> {
            if (++depth > MAX_DEPTH) {
              throw tooDeep(source, reader);
            }
            reader.beginObject();
            open.push(new HashSet<>());
          }
          case END_OBJECT -> {
            reader.endObject();
            open.pop();
            depth--;
          }
          case BEGIN_ARRAY -> {
            if (++depth > MAX_DEPTH) {
              throw tooDeep(source, reader);
            }
            reader.beginArray();
          }
          case END_ARRAY -> {
            reader.endArray();
            depth--;
          }
          case NAME -> {
            String path = reader.getPath();
            String name = reader.nextName();
            if (!open.peek().add(name)) {
              throw new InvalidActionException(source + ": the key " + Texts.doubleQuote(name)
                  + " appears twice in the object at " + Texts.bounded(parentPath(path), MESSAGE_CHARS)
                  + "; JSON keys are unique within an object");
            }
          }
          case END_DOCUMENT -> {
            return;
          }
          default -> reader.skipValue();
        }
      } while (depth > 0 || reader.peek() != JsonToken.END_DOCUMENT);
    } catch (IOException | IllegalStateException | NumberFormatException e) {
      throw new InvalidActionException(source + " is not valid JSON: "
          + Texts.bounded(e.getMessage(), MESSAGE_CHARS));
    }
  }

  private static InvalidActionException tooDeep(String source, JsonReader reader) {
    return new InvalidActionException(source + ": JSON nested more than " + MAX_DEPTH
        + " levels deep (at " + Texts.bounded(reader.getPath(), MESSAGE_CHARS) + "); no operation "
        + "nests that deep");
  }

  private static String parentPath(String path) {
    int dot = path.lastIndexOf('.');
    return dot > 0 ? path.substring(0, dot) : "$";
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
