package dev.lancet.core.action;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Message;
import com.google.protobuf.UnknownFieldSet;
import dev.lancet.format.pb.ActionProtos;
import dev.lancet.format.pb.TransactionProtos.Transaction;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/**
 * The V2 wire layout is the newest draft's (lance-format/lance protos/transaction/actions.proto
 * @83c943b56b5ffbac38affa813c7932d93fa5d778: {@code CompositeOperation {repeated UserAction
 * actions = 1}}, {@code AddIndexSegment.covering_fields = 12}), and decoding fails closed at any
 * depth. Upstream bytes are hand-encoded here from the draft's numbers, not produced by our own
 * encoder, so the tests pin the numbering rather than our round trip.
 */
class WireFailClosedTest {

  // ---- hand encoding ------------------------------------------------------------------------

  private static byte[] message(Writer w) {
    try {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      CodedOutputStream out = CodedOutputStream.newInstance(bytes);
      w.write(out);
      out.flush();
      return bytes.toByteArray();
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }

  private interface Writer {
    void write(CodedOutputStream out) throws IOException;
  }

  /** Ref{committed = id}. */
  private static byte[] committedRef(long id) {
    return message(out -> out.writeUInt64(1, id));
  }

  /** Action{remove_fragment (6) = RemoveFragment{fragment (1) = Ref}}. */
  private static byte[] removeFragment(long id) {
    byte[] rf = message(out -> out.writeByteArray(1, committedRef(id)));
    return message(out -> out.writeByteArray(6, rf));
  }

  /** UserAction{description = 1, actions = 2}. */
  private static byte[] step(String description, byte[]... actions) {
    return message(out -> {
      out.writeString(1, description);
      for (byte[] a : actions) {
        out.writeByteArray(2, a);
      }
    });
  }

  /** A CompositeOperation whose steps are field {@code stepsField}. */
  private static byte[] composite(int stepsField, byte[]... steps) {
    return message(out -> {
      for (byte[] s : steps) {
        out.writeByteArray(stepsField, s);
      }
    });
  }

  // ---- the newest draft's layout --------------------------------------------------------------

  /** Seen before the fix: these bytes decoded as an operation with zero steps and no error. */
  @Test
  void bytesOfTheNewestDraftDecodeToTheirSteps() throws Exception {
    byte[] bytes = composite(1, step("compact", removeFragment(3), removeFragment(4)), step("drop", removeFragment(9)));
    CompositeOperation op = ActionCodec.decode(ActionProtos.CompositeOperation.parseFrom(bytes));
    assertThat(op.steps()).extracting(UserStep::description).containsExactly("compact", "drop");
    assertThat(op.actions()).containsExactly(new RemoveFragment(Ref.committed(3), true),
        new RemoveFragment(Ref.committed(4), true), new RemoveFragment(Ref.committed(9), true));
    // And our encoder writes exactly the draft's bytes.
    assertThat(ActionCodec.encode(op).toByteArray()).isEqualTo(bytes);
  }

  @Test
  void coveringFieldsAreField12OfAddIndexSegment() throws Exception {
    AddIndexSegment segment = new AddIndexSegment(new java.util.UUID(1, 2), "by_a", List.of(Ref.committed(0)),
        java.util.Optional.empty(), java.util.OptionalInt.empty(), java.util.Optional.empty(), List.of(), true,
        java.util.Optional.empty(), java.util.OptionalLong.empty(), java.util.OptionalLong.empty(),
        List.of(Ref.committed(5), Ref.local(1)));
    ActionProtos.AddIndexSegment wire = ActionCodec.encode(segment).getAddIndexSegment();
    UnknownFieldSet raw = UnknownFieldSet.parseFrom(wire.toByteArray());
    assertThat(raw.getField(12).getLengthDelimitedList())
        .containsExactly(ByteString.copyFrom(committedRef(5)), ByteString.copyFrom(message(out -> out.writeUInt32(2, 1))));
    assertThat(ActionCodec.decode(ActionCodec.encode(segment))).isEqualTo(segment);
  }

  // ---- the old layout fails closed ----------------------------------------------------------

  /**
   * Bytes in the layout earlier Lancet builds wrote ({@code actions = 3}, draft ea4b6f3f) need not
   * be readable, but they must never decode as an empty operation.
   */
  @Test
  void bytesOfTheOldLayoutAreRejectedNeverReadAsEmpty() throws Exception {
    byte[] old = composite(3, step("append", removeFragment(1)));
    byte[] txn = Transaction.newBuilder().setUuid("old").setReadVersion(4)
        .setCompositeOperation(ActionProtos.CompositeOperation.parseFrom(old)).build().toByteArray();
    Transaction read = Transaction.parseFrom(txn);
    assertThat(read.hasCompositeOperation()).isTrue();
    assertThatThrownBy(() -> ActionCodec.decode(read.getCompositeOperation()))
        .isInstanceOf(InvalidActionException.class)
        .hasMessageContaining("CompositeOperation").hasMessageContaining("field 3")
        .hasMessageContaining("older layout");
  }

  @Test
  void anOldLayoutThatSetTheReadVersionIsRejectedToo() throws Exception {
    byte[] old = message(out -> {
      out.writeUInt64(2, 7);
      out.writeByteArray(3, step("s", removeFragment(1)));
    });
    assertThatThrownBy(() -> ActionCodec.decode(ActionProtos.CompositeOperation.parseFrom(old)))
        .isInstanceOf(InvalidActionException.class).hasMessageContaining("field 2").hasMessageContaining("field 3");
  }

  @Test
  void bytesThatHoldNoStepAreRejected() throws Exception {
    byte[] bytes = message(out -> out.writeUInt64(2, 7));
    assertThatThrownBy(() -> ActionCodec.decode(ActionProtos.CompositeOperation.parseFrom(bytes)))
        .isInstanceOf(InvalidActionException.class);
    // Truly empty bytes are an empty operation, as before.
    assertThat(ActionCodec.decode(ActionProtos.CompositeOperation.parseFrom(new byte[0])).steps()).isEmpty();
  }

  /**
   * Other drafts put other messages at Transaction arm 116 (wire-diff §2.2): #9150's
   * {@code ReserveRowIds{uint64 num_row_ids = 1}}, #9136's pre-removal
   * {@code AppendFragmentReuseTransitions{repeated Transition transitions = 1}} and #7737's
   * {@code CompositeOperation{repeated Transaction transactions}}. Read as our operation, none may
   * decode (before the fix the last two read as an empty operation).
   */
  @Test
  void otherDraftsPayloadsAtArm116AreRejected() throws Exception {
    byte[] reserveRowIds = message(out -> out.writeUInt64(1, 1000));
    byte[] digest = message(out -> {
      out.writeUInt64(1, 3);
      out.writeUInt64(2, 10);
    });
    byte[] transition = message(out -> {
      out.writeByteArray(1, digest);
      out.writeByteArray(2, digest);
    });
    byte[] friTransitions = message(out -> out.writeByteArray(1, transition));
    byte[] legacyTxn = Transaction.newBuilder().setReadVersion(3).setUuid("inner")
        .setReserveFragments(Transaction.ReserveFragments.newBuilder().setNumFragments(2)).build().toByteArray();
    byte[] nestedTransactions = message(out -> out.writeByteArray(1, legacyTxn));
    int decoded = 0;
    for (byte[] payload : List.of(reserveRowIds, friTransitions, nestedTransactions)) {
      Transaction envelope;
      try {
        envelope = Transaction.parseFrom(message(out -> {
          out.writeString(2, "draft");
          out.writeByteArray(116, payload);
        }));
      } catch (com.google.protobuf.InvalidProtocolBufferException unparseable) {
        continue; // Refused even earlier: the transaction does not parse at all.
      }
      Transaction read = envelope;
      assertThatThrownBy(() -> ActionCodec.decode(read.getCompositeOperation()))
          .isInstanceOf(InvalidActionException.class);
      decoded++;
    }
    assertThat(decoded).as("payloads that parse and reach the decoder").isGreaterThanOrEqualTo(2);
  }

  // ---- unknown fields at any depth ----------------------------------------------------------

  /** Seen before the fix: an unknown field inside the data file (or any nested message) was kept. */
  @Test
  void anUnknownFieldInsideANestedMessageNamesItsPath() {
    CompositeOperation op = new CompositeOperation(List.of(new UserStep("append", List.of(
        AddFragment.local(0, 5),
        new AddDataFile(Ref.local(0), new dev.lancet.format.model.DataFile("a.lance", List.of(-1), List.of(0), 2, 1, 9),
            List.of(Ref.committed(0)), true)))));
    ActionProtos.CompositeOperation wire = ActionCodec.encode(op);
    ActionProtos.CompositeOperation poisoned = wire.toBuilder().setActions(0, wire.getActions(0).toBuilder()
        .setActions(1, wire.getActions(0).getActions(1).toBuilder().setAddDataFile(
            wire.getActions(0).getActions(1).getAddDataFile().toBuilder().setFile(
                wire.getActions(0).getActions(1).getAddDataFile().getFile().toBuilder()
                    .setUnknownFields(unknown(9, 1)))))).build();
    assertThatThrownBy(() -> ActionCodec.decode(poisoned))
        .isInstanceOf(InvalidActionException.class)
        .hasMessageContaining("CompositeOperation.actions[0].actions[1].add_data_file.file")
        .hasMessageContaining("lance.table.DataFile").hasMessageContaining("field 9");
  }

  /**
   * Any valid operation with an unknown field injected into any message at any depth (the
   * composite itself, a step, an action, a Ref, a data file, a schema field, a filter, ...) is
   * rejected, with the path of the message that carries it; the untouched operation decodes.
   */
  @Property(tries = 400)
  void anUnknownFieldAtAnyDepthRejectsTheOperation(@ForAll("ops") CompositeOperation op,
      @ForAll @IntRange(min = 0, max = 10_000) int pick, @ForAll("wireTypes") int wireType,
      @ForAll @IntRange(min = 1, max = 20_000) int number) throws Exception {
    ActionProtos.CompositeOperation wire = ActionCodec.encode(op);
    assertThat(ActionCodec.decode(wire)).isEqualTo(op);
    List<Node> nodes = new ArrayList<>();
    collect(wire, "CompositeOperation", List.of(), nodes);
    Node target = nodes.get(pick % nodes.size());
    int field = unusedNumber(target.message, number);
    Message poisoned = inject(wire, target.steps, unknown(field, wireType));
    // Through bytes, as a reader meets it.
    ActionProtos.CompositeOperation parsed = ActionProtos.CompositeOperation.parseFrom(poisoned.toByteArray());
    assertThatThrownBy(() -> ActionCodec.decode(parsed))
        .isInstanceOf(InvalidActionException.class)
        .hasMessageContaining(target.path + " (a " + target.message.getDescriptorForType().getFullName() + ")")
        .hasMessageContaining("field " + field + " ");
  }

  @Provide
  Arbitrary<CompositeOperation> ops() {
    return ActionArbitraries.operations();
  }

  @Provide
  Arbitrary<Integer> wireTypes() {
    return Arbitraries.integers().between(0, 3);
  }

  /** A message in the tree, with the path to it: (field, index or -1) per level. */
  private record Node(Message message, String path, List<Step> steps) {}

  private record Step(FieldDescriptor field, int index) {}

  private static void collect(Message m, String path, List<Step> steps, List<Node> out) {
    out.add(new Node(m, path, steps));
    for (FieldDescriptor fd : m.getDescriptorForType().getFields()) {
      if (fd.getJavaType() != FieldDescriptor.JavaType.MESSAGE) {
        continue;
      }
      if (fd.isRepeated()) {
        for (int i = 0; i < m.getRepeatedFieldCount(fd); i++) {
          List<Step> next = new ArrayList<>(steps);
          next.add(new Step(fd, i));
          collect((Message) m.getRepeatedField(fd, i), path + "." + fd.getName() + "[" + i + "]", next, out);
        }
      } else if (m.hasField(fd)) {
        List<Step> next = new ArrayList<>(steps);
        next.add(new Step(fd, -1));
        collect((Message) m.getField(fd), path + "." + fd.getName(), next, out);
      }
    }
  }

  private static Message inject(Message m, List<Step> steps, UnknownFieldSet extra) {
    if (steps.isEmpty()) {
      return m.toBuilder().setUnknownFields(extra).build();
    }
    Step s = steps.get(0);
    List<Step> rest = steps.subList(1, steps.size());
    Message.Builder b = m.toBuilder();
    if (s.index >= 0) {
      b.setRepeatedField(s.field, s.index, inject((Message) m.getRepeatedField(s.field, s.index), rest, extra));
    } else {
      b.setField(s.field, inject((Message) m.getField(s.field), rest, extra));
    }
    return b.build();
  }

  /** A field number the message's type does not declare, near {@code wanted}. */
  private static int unusedNumber(Message m, int wanted) {
    int n = wanted;
    while (m.getDescriptorForType().findFieldByNumber(n) != null || (n >= 19000 && n <= 19999)) {
      n = n % 18_000 + 1;
    }
    return n;
  }

  private static UnknownFieldSet unknown(int number, int wireType) {
    UnknownFieldSet.Field.Builder f = UnknownFieldSet.Field.newBuilder();
    switch (wireType) {
      case 0 -> f.addVarint(1);
      case 1 -> f.addFixed64(1);
      case 2 -> f.addLengthDelimited(ByteString.copyFromUtf8("x"));
      default -> f.addFixed32(1);
    }
    return UnknownFieldSet.newBuilder().addField(number, f.build()).build();
  }
}
