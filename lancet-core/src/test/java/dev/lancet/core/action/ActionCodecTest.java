package dev.lancet.core.action;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.UnknownFieldSet;
import dev.lancet.format.pb.ActionProtos;
import java.util.List;
import java.util.Optional;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

class ActionCodecTest {

  @Property(tries = 500)
  void randomOperationsRoundTripThroughBytes(@ForAll("ops") CompositeOperation op) throws Exception {
    byte[] bytes = ActionCodec.encode(op).toByteArray();
    CompositeOperation back = ActionCodec.decode(ActionProtos.CompositeOperation.parseFrom(bytes));
    assertThat(back).isEqualTo(op);
  }

  @net.jqwik.api.Provide
  net.jqwik.api.Arbitrary<CompositeOperation> ops() {
    return ActionArbitraries.operations();
  }

  @Test
  void everyActionKindHasAnEncoding() {
    // One sample per permitted subtype: a new action without an encoding fails here.
    assertThat(Action.class.getPermittedSubclasses()).hasSize(22);
    assertThat(ActionProtos.Action.ActionCase.values()).hasSize(23);
  }

  @Test
  void dataChangeIsAbsentWhenTrue() {
    ActionProtos.Action on = ActionCodec.encode(new RemoveFragment(Ref.committed(1), true));
    ActionProtos.Action off = ActionCodec.encode(new RemoveFragment(Ref.committed(1), false));
    assertThat(on.getRemoveFragment().hasDataChange()).isFalse();
    assertThat(off.getRemoveFragment().hasDataChange()).isTrue();
    assertThat(ActionCodec.decode(on).isDataChange()).isTrue();
    assertThat(ActionCodec.decode(off).isDataChange()).isFalse();
  }

  @Test
  void emptyActionIsRejected() {
    assertThatThrownBy(() -> ActionCodec.decode(ActionProtos.Action.getDefaultInstance()))
        .isInstanceOf(InvalidActionException.class).hasMessageContaining("was empty");
  }

  @Test
  void emptyRefIsRejected() {
    ActionProtos.Action a = ActionProtos.Action.newBuilder().setDropField(
        ActionProtos.DropField.newBuilder().setField(ActionProtos.Ref.getDefaultInstance())).build();
    assertThatThrownBy(() -> ActionCodec.decode(a))
        .isInstanceOf(InvalidActionException.class).hasMessageContaining("committed or local");
  }

  @Test
  void missingRequiredPartIsRejected() {
    ActionProtos.Action a = ActionProtos.Action.newBuilder()
        .setAddDataFile(ActionProtos.AddDataFile.getDefaultInstance()).build();
    assertThatThrownBy(() -> ActionCodec.decode(a))
        .isInstanceOf(InvalidActionException.class)
        .hasMessageContaining("`AddDataFile.fragment` is required but was not set");
  }

  @Test
  void oneUndecodableActionRejectsTheWholeOperation() {
    ActionProtos.CompositeOperation op = ActionCodec.encode(new CompositeOperation(List.of(
        new UserStep("fine", List.of(new ResetTable())))))
        .toBuilder()
        .addActions(ActionProtos.UserAction.newBuilder().setDescription("broken")
            .addActions(ActionProtos.Action.getDefaultInstance()))
        .build();
    assertThatThrownBy(() -> ActionCodec.decode(op))
        .isInstanceOf(InvalidActionException.class)
        .hasMessageContaining("step 2 ('broken'), action 1");
  }

  @Test
  void fieldsFromANewerWriterAreRefused() {
    UnknownFieldSet future = UnknownFieldSet.newBuilder()
        .addField(42, UnknownFieldSet.Field.newBuilder().addVarint(1).build()).build();
    ActionProtos.Action a = ActionProtos.Action.newBuilder().setRemoveFragment(
        ActionProtos.RemoveFragment.newBuilder().setFragment(ActionProtos.Ref.newBuilder().setCommitted(3))
            .setUnknownFields(future)).build();
    assertThatThrownBy(() -> ActionCodec.decode(a))
        .isInstanceOf(InvalidActionException.class)
        .hasMessageContaining("Action.remove_fragment").hasMessageContaining("field 42");
  }

  @Test
  void anEmptyStepIsLegal() {
    CompositeOperation op = new CompositeOperation(List.of(new UserStep("nothing", List.of())));
    assertThat(ActionCodec.decode(ActionCodec.encode(op))).isEqualTo(op);
  }

  @Test
  void filterFieldIdsAreLeftEmptyOnTheWire() {
    ActionProtos.Action a = ActionCodec.encode(new AssertUniqueKeys(List.of(Ref.committed(0)),
        new KeyExistenceFilter.Exact(List.of(1L, 2L))));
    assertThat(a.getAssertUniqueKeys().getFilter().getFieldIdsList()).isEmpty();
    assertThat(a.getAssertUniqueKeys().getKeyFieldsList()).hasSize(1);
  }

  @Test
  void coverageAbsentDiffersFromCoveringNothing() {
    AddIndexSegment unknown = new AddIndexSegment(new java.util.UUID(1, 2), "i", List.of(), Optional.empty(),
        java.util.OptionalInt.empty(), Optional.empty(), List.of(), true, Optional.empty(),
        java.util.OptionalLong.empty(), java.util.OptionalLong.empty(), List.of());
    AddIndexSegment nothing = new AddIndexSegment(new java.util.UUID(1, 2), "i", List.of(), Optional.empty(),
        java.util.OptionalInt.empty(), Optional.of(List.of()), List.of(), true, Optional.empty(),
        java.util.OptionalLong.empty(), java.util.OptionalLong.empty(), List.of());
    assertThat(ActionCodec.encode(unknown).getAddIndexSegment().hasCoveredFragments()).isFalse();
    assertThat(ActionCodec.encode(nothing).getAddIndexSegment().hasCoveredFragments()).isTrue();
    assertThat(ActionCodec.decode(ActionCodec.encode(nothing))).isEqualTo(nothing);
  }
}
