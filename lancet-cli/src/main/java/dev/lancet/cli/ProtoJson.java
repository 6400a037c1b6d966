package dev.lancet.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.BigIntegerNode;
import com.fasterxml.jackson.databind.node.LongNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.Any;
import com.google.protobuf.DescriptorProtos;
import com.google.protobuf.Descriptors;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import com.google.protobuf.util.JsonFormat;
import dev.lancet.format.pb.TableProtos;
import dev.lancet.format.pb.TransactionProtos;
import java.math.BigInteger;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Protobuf JSON for the {@code --json} output of commands that print a protobuf message
 * ({@code inspect}, {@code show-txn}); other results are built with {@link CliJson}.
 *
 * <p>Index details are a {@code google.protobuf.Any}, which protobuf JSON can print only when
 * it knows the packed type. Every message of Lancet's own .proto files is known. Lance packs
 * many index kinds as empty messages ({@code BTreeIndexDetails} and others) that Lancet does
 * not define; an empty payload of an unknown type prints losslessly as {@code {"@type": url}}
 * through a stand-in empty message. A non-empty payload of an unknown type cannot be
 * printed, and that is an error that names the type.
 */
final class ProtoJson {
  /** Every message type Lancet's own .proto files define. */
  private static final JsonFormat.TypeRegistry KNOWN = knownTypes().build();

  private ProtoJson() {}

  /** The protobuf JSON of {@code message} as {@link #toJson} gives it, pretty-printed. */
  static String print(Message message) {
    return CliJson.print(toJson(message));
  }

  /**
   * {@code JsonFormat.printer().print(message)} with the type registry described above, except
   * that 64-bit integer fields are JSON integers, not the decimal strings proto3's canonical
   * mapping prints: a script reads {@code "version": 10}. Protobuf's JSON parser accepts both
   * spellings, so the output still parses back into the same message (and {@code lancet
   * commit --file} takes it).
   */
  static JsonNode toJson(Message message) {
    // JsonFormat drops fields it does not know without a word; a message that has any (bytes
    // of a newer or older layout) cannot be printed exactly, so it is refused.
    unknownField(message, message.getDescriptorForType().getName()).ifPresent(path -> {
      throw new CliException("cannot print " + message.getDescriptorForType().getName()
          + " exactly as JSON: it holds " + path + ", which this build of Lancet does not know "
          + "(written by a newer or older layout); run without --json for what can be read");
    });
    JsonFormat.TypeRegistry registry = registryFor(message);
    String canonical;
    try {
      canonical = JsonFormat.printer().usingTypeRegistry(registry).print(message);
    } catch (InvalidProtocolBufferException e) {
      throw new CliException("cannot print " + message.getDescriptorForType().getName()
          + " as protobuf JSON: " + e.getMessage());
    }
    JsonNode tree = CliJson.parse(canonical);
    integersAsNumbers(message.getDescriptorForType(), tree, registry);
    return tree;
  }

  /** The path of the first field unknown to this build anywhere in {@code m}, if any. */
  static java.util.Optional<String> unknownField(Message m, String path) {
    if (!m.getUnknownFields().asMap().isEmpty()) {
      return java.util.Optional.of("field " + m.getUnknownFields().asMap().keySet().iterator().next()
          + " of " + path);
    }
    for (Map.Entry<Descriptors.FieldDescriptor, Object> e : m.getAllFields().entrySet()) {
      if (e.getKey().getJavaType() != Descriptors.FieldDescriptor.JavaType.MESSAGE) {
        continue;
      }
      String at = path + "." + e.getKey().getName();
      if (e.getKey().isRepeated()) {
        List<?> items = (List<?>) e.getValue();
        for (int i = 0; i < items.size(); i++) {
          java.util.Optional<String> found = unknownField((Message) items.get(i), at + "[" + i + "]");
          if (found.isPresent()) {
            return found;
          }
        }
      } else {
        java.util.Optional<String> found = unknownField((Message) e.getValue(), at);
        if (found.isPresent()) {
          return found;
        }
      }
    }
    return java.util.Optional.empty();
  }

  /** Rewrites the 64-bit integer fields of the protobuf JSON {@code node} of {@code type}. */
  private static void integersAsNumbers(Descriptors.Descriptor type, JsonNode node,
      JsonFormat.TypeRegistry registry) {
    if (!(node instanceof ObjectNode object)) {
      return;
    }
    if (type.getFullName().equals(Any.getDescriptor().getFullName())) {
      Descriptors.Descriptor packed = registry.find(typeName(object.path("@type").asText()));
      if (packed != null && !isWellKnown(packed)) {
        integersAsNumbers(packed, object, registry);
      }
      return;
    }
    if (isWellKnown(type)) {
      return; // Timestamp and friends have their own JSON forms
    }
    for (Descriptors.FieldDescriptor field : type.getFields()) {
      JsonNode value = object.get(field.getJsonName());
      if (value == null) {
        continue;
      }
      if (field.isMapField()) {
        Descriptors.FieldDescriptor valueField = field.getMessageType().findFieldByName("value");
        if (value instanceof ObjectNode map) {
          map.fieldNames().forEachRemaining(key -> map.set(key, number(valueField, map.get(key), registry)));
        }
      } else if (field.isRepeated()) {
        if (value instanceof ArrayNode items) {
          for (int i = 0; i < items.size(); i++) {
            items.set(i, number(field, items.get(i), registry));
          }
        }
      } else {
        object.set(field.getJsonName(), number(field, value, registry));
      }
    }
  }

  private static JsonNode number(Descriptors.FieldDescriptor field, JsonNode value,
      JsonFormat.TypeRegistry registry) {
    if (field.getJavaType() == Descriptors.FieldDescriptor.JavaType.MESSAGE) {
      integersAsNumbers(field.getMessageType(), value, registry);
      return value;
    }
    if (field.getJavaType() == Descriptors.FieldDescriptor.JavaType.LONG && value.isTextual()) {
      BigInteger n = new BigInteger(value.asText());
      return n.bitLength() < 64 ? LongNode.valueOf(n.longValue()) : BigIntegerNode.valueOf(n);
    }
    return value;
  }

  private static boolean isWellKnown(Descriptors.Descriptor type) {
    return type.getFile().getPackage().equals("google.protobuf");
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
}
