package dev.lancet.cli;

import com.google.protobuf.Any;
import com.google.protobuf.DescriptorProtos;
import com.google.protobuf.Descriptors;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.ListValue;
import com.google.protobuf.Message;
import com.google.protobuf.NullValue;
import com.google.protobuf.Struct;
import com.google.protobuf.Value;
import com.google.protobuf.util.JsonFormat;
import dev.lancet.format.pb.TableProtos;
import dev.lancet.format.pb.TransactionProtos;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Protobuf canonical JSON for the commands' {@code --json} output, and JSON built from
 * {@link Struct}/{@link Value} for results that are not protobuf messages.
 *
 * <p>Index details are a {@code google.protobuf.Any}, which protobuf JSON can print only when
 * it knows the packed type. Every message of Lancet's own .proto files is known. Lance packs
 * many index kinds as empty messages ({@code BTreeIndexDetails} and others) that Lancet does
 * not define; an empty payload of an unknown type prints losslessly as {@code {"@type": url}}
 * through a stand-in empty message. A non-empty payload of an unknown type cannot be
 * printed, and that is an error that names the type.
 */
final class ProtoJson {
  /** Values from 2^53 on are not exact as JSON numbers (doubles); they print as strings. */
  private static final long MAX_EXACT = 1L << 53;
  /** Every message type Lancet's own .proto files define. */
  private static final JsonFormat.TypeRegistry KNOWN = knownTypes().build();

  private ProtoJson() {}

  /** {@code JsonFormat.printer().print(message)}, with the type registry described above. */
  static String print(Message message) {
    JsonFormat.TypeRegistry registry = registryFor(message);
    try {
      return JsonFormat.printer().usingTypeRegistry(registry).print(message);
    } catch (InvalidProtocolBufferException e) {
      throw new CliException("cannot print " + message.getDescriptorForType().getName()
          + " as protobuf JSON: " + e.getMessage());
    }
  }

  /** Prints a {@link Value} (an object, array, ...) built for a non-protobuf result. */
  static String print(Value value) {
    try {
      return JsonFormat.printer().print(value);
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalStateException("a Struct value must always print", e);
    }
  }

  static JsonFormat.TypeRegistry registryFor(Message message) {
    Map<String, Any> anys = new LinkedHashMap<>();
    collectAnys(message, anys);
    JsonFormat.TypeRegistry.Builder b = knownTypes();
    for (Map.Entry<String, Any> e : anys.entrySet()) {
      if (KNOWN.find(e.getKey()) != null) {
        continue;
      }
      if (!e.getValue().getValue().isEmpty()) {
        throw new CliException("cannot print protobuf JSON: it holds a google.protobuf.Any of type "
            + e.getValue().getTypeUrl() + ", which Lancet does not define, with a non-empty "
            + "payload; run without --json for a summary");
      }
      b.add(emptyMessage(e.getKey()));
    }
    return b.build();
  }

  /** Each add() brings a whole .proto file and everything it imports. */
  private static JsonFormat.TypeRegistry.Builder knownTypes() {
    return JsonFormat.TypeRegistry.newBuilder()
        .add(TableProtos.Manifest.getDescriptor())
        .add(TransactionProtos.Transaction.getDescriptor());
  }

  /**
   * Every Any in {@code m}, keyed by the full name of the packed type; of several Anys of one
   * type, one with a non-empty payload is kept.
   */
  private static void collectAnys(Message m, Map<String, Any> out) {
    if (m instanceof Any any) {
      out.merge(typeName(any.getTypeUrl()), any, (old, now) -> old.getValue().isEmpty() ? now : old);
      return;
    }
    for (Map.Entry<Descriptors.FieldDescriptor, Object> e : m.getAllFields().entrySet()) {
      if (e.getKey().getJavaType() != Descriptors.FieldDescriptor.JavaType.MESSAGE) {
        continue;
      }
      if (e.getKey().isRepeated()) {
        for (Object item : (List<?>) e.getValue()) {
          collectAnys((Message) item, out);
        }
      } else {
        collectAnys((Message) e.getValue(), out);
      }
    }
  }

  private static String typeName(String typeUrl) {
    return typeUrl.substring(typeUrl.lastIndexOf('/') + 1);
  }

  private static String simpleName(String typeName) {
    return typeName.substring(typeName.lastIndexOf('.') + 1);
  }

  /** A stand-in: an empty message named {@code typeName}, in its own synthetic file. */
  private static Descriptors.Descriptor emptyMessage(String typeName) {
    int dot = typeName.lastIndexOf('.');
    DescriptorProtos.FileDescriptorProto.Builder file = DescriptorProtos.FileDescriptorProto.newBuilder()
        .setName("lancet-cli/stand-in/" + typeName + ".proto")
        .setSyntax("proto3")
        .addMessageType(DescriptorProtos.DescriptorProto.newBuilder()
            .setName(typeName.substring(dot + 1)));
    if (dot > 0) {
      file.setPackage(typeName.substring(0, dot));
    }
    try {
      return Descriptors.FileDescriptor.buildFrom(file.build(), new Descriptors.FileDescriptor[0])
          .getMessageTypes().get(0);
    } catch (Descriptors.DescriptorValidationException e) {
      throw new CliException("cannot print protobuf JSON: the Any type name '" + typeName
          + "' is not a valid message name");
    }
  }

  // ---- Struct/Value builders for non-protobuf results ----

  static Value string(String s) {
    return Value.newBuilder().setStringValue(s).build();
  }

  static Value nullValue() {
    return Value.newBuilder().setNullValue(NullValue.NULL_VALUE).build();
  }

  /** An unsigned 64-bit number: a JSON number while exact, else a decimal string. */
  static Value unsigned(long v) {
    if (v >= 0 && v <= MAX_EXACT) {
      return Value.newBuilder().setNumberValue(v).build();
    }
    return string(Long.toUnsignedString(v));
  }

  static Value strings(List<String> items) {
    ListValue.Builder b = ListValue.newBuilder();
    for (String s : items) {
      b.addValues(string(s));
    }
    return Value.newBuilder().setListValue(b).build();
  }

  static Value array(List<Value> items) {
    return Value.newBuilder().setListValue(ListValue.newBuilder().addAllValues(items)).build();
  }

  static Value object(Struct.Builder struct) {
    return Value.newBuilder().setStructValue(struct).build();
  }
}
