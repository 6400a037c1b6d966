package dev.lancet.core.action;

import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Message;
import com.google.protobuf.UnknownFieldSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Fails a V2 operation closed when it carries, at any depth, a field this build does not know
 * (a newer writer's addition, or a layout from another draft): such a field may change what
 * the operation means, so the operation is rejected rather than read without it. The error
 * names the path of the message that carries the field ({@code
 * CompositeOperation.actions[0].actions[2].add_data_file.file}) and the field numbers.
 * {@code google.protobuf.Any} payloads are opaque bytes and are not looked into.
 */
final class UnknownFields {
  private UnknownFields() {}

  /** Message-typed fields per message type, found once. */
  private static final Map<Descriptor, List<FieldDescriptor>> MESSAGE_FIELDS = new ConcurrentHashMap<>();

  static void reject(Message root, String rootName) {
    walk(root, rootName);
  }

  private static void walk(Message m, String path) {
    UnknownFieldSet unknown = m.getUnknownFields();
    if (!unknown.asMap().isEmpty()) {
      throw new InvalidActionException(path + " (a " + m.getDescriptorForType().getFullName() + ") carries "
          + describe(unknown) + " that this Lancet does not know (written by a newer writer, or in another "
          + "draft's layout)" + oldLayoutHint(m, unknown) + "; the whole operation is rejected rather than "
          + "read partly");
    }
    for (FieldDescriptor fd : messageFields(m.getDescriptorForType())) {
      if (fd.isRepeated()) {
        int n = m.getRepeatedFieldCount(fd);
        for (int i = 0; i < n; i++) {
          walk((Message) m.getRepeatedField(fd, i), path + "." + fd.getName() + "[" + i + "]");
        }
      } else if (m.hasField(fd)) {
        walk((Message) m.getField(fd), path + "." + fd.getName());
      }
    }
  }

  private static List<FieldDescriptor> messageFields(Descriptor d) {
    return MESSAGE_FIELDS.computeIfAbsent(d, x -> {
      List<FieldDescriptor> out = new ArrayList<>();
      for (FieldDescriptor fd : x.getFields()) {
        if (fd.getJavaType() == FieldDescriptor.JavaType.MESSAGE) {
          out.add(fd);
        }
      }
      return List.copyOf(out);
    });
  }

  private static String describe(UnknownFieldSet unknown) {
    List<String> parts = new ArrayList<>();
    unknown.asMap().forEach((number, f) -> parts.add("field " + number + " (" + wireType(f) + ")"));
    return String.join(", ", parts);
  }

  private static String wireType(UnknownFieldSet.Field f) {
    if (!f.getLengthDelimitedList().isEmpty()) {
      return "length-delimited";
    }
    if (!f.getVarintList().isEmpty()) {
      return "varint";
    }
    if (!f.getFixed64List().isEmpty()) {
      return "fixed64";
    }
    if (!f.getFixed32List().isEmpty()) {
      return "fixed32";
    }
    return "group";
  }

  /**
   * Bytes of the older CompositeOperation layout ({@code UUID uuid = 1; uint64 read_version = 2;
   * repeated UserAction actions = 3}, upstream draft ea4b6f3f, which Lancet wrote before it moved
   * to the newest draft's {@code actions = 1}) carry their steps in field 3.
   */
  private static String oldLayoutHint(Message m, UnknownFieldSet unknown) {
    if (m instanceof dev.lancet.format.pb.ActionProtos.CompositeOperation
        && (unknown.hasField(3) || unknown.hasField(2))) {
      return ". It looks like the older layout that numbered the steps 3 (draft ea4b6f3f, written by "
          + "earlier Lancet builds), which this build no longer reads: the newest draft numbers them 1";
    }
    return "";
  }
}
