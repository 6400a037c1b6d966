package dev.lancet.core.action;

import static dev.lancet.core.action.IndexApplyFixtures.apply;
import static dev.lancet.core.action.IndexApplyFixtures.applyError;
import static dev.lancet.core.action.IndexApplyFixtures.twoColumnManifest;
import static dev.lancet.core.action.IndexApplyFixtures.where;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import dev.lancet.core.apply.ApplyException;
import dev.lancet.format.model.Field;
import dev.lancet.format.model.Manifest;
import dev.lancet.format.pb.ActionProtos;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.roaringbitmap.RoaringBitmap;

/** AssertCellsUnchanged: a precondition that changes nothing, checked against what it names. */
class AssertCellsUnchangedTest {
  private static AssertCellsUnchanged read(Ref fragment, List<Ref> fields, int... rows) {
    return new AssertCellsUnchanged(fragment, fields, RoaringBitmap.bitmapOf(rows));
  }

  @Test
  void itChangesNothingAndIsNeverADataChange() {
    Manifest before = twoColumnManifest();
    AssertCellsUnchanged a = read(Ref.committed(1), List.of(Ref.committed(0), Ref.committed(1)), 0, 9);

    Manifest after = apply(before, a);

    assertThat(after.fragments()).isEqualTo(before.fragments());
    assertThat(after.schema()).isEqualTo(before.schema());
    assertThat(a.isDataChange()).isFalse();
  }

  @Test
  void itMayNameAFragmentAndAFieldMintedEarlierInTheOperation() {
    Manifest after = apply(twoColumnManifest(), AddFragment.local(0, 5),
        AddField.topLevel(0, Field.builder(0, "c", "int64").build()),
        read(Ref.local(0), List.of(Ref.local(0), Ref.committed(1)), 4));

    assertThat(after.fragments()).hasSize(3);
  }

  @Test
  void badNamesAreRejectedWhereTheyAre() {
    ApplyException noFragment = applyError(() -> apply(twoColumnManifest(), read(Ref.committed(7), List.of(Ref.committed(0)), 1)));
    assertThat(noFragment.problem()).isEqualTo("AssertCellsUnchanged targets fragment 7, which does not exist");
    assertThat(noFragment.where()).isEqualTo(where(1, "AssertCellsUnchanged"));

    assertThat(applyError(() -> apply(twoColumnManifest(), read(Ref.committed(0), List.of(Ref.committed(5)), 1))))
        .hasMessageContaining("names field 5, which is not in the schema");
    assertThat(applyError(() -> apply(twoColumnManifest(), read(Ref.committed(0), List.of(Ref.committed(0)), 10))))
        .hasMessageContaining("row offset 10").hasMessageContaining("only 10 physical rows");
    assertThat(applyError(() -> apply(twoColumnManifest(), read(Ref.committed(0), List.of()))))
        .hasMessageContaining("names no field");
    assertThat(applyError(() -> apply(twoColumnManifest(), read(Ref.committed(0), List.of(Ref.committed(0))))))
        .hasMessageContaining("names no rows");
    assertThat(applyError(() -> apply(twoColumnManifest(), read(Ref.local(3), List.of(Ref.committed(0)), 1))))
        .hasMessageContaining("local fragment token 3, which no earlier action in this operation minted");
  }

  @Test
  void theRecordCannotBeChangedThroughItsBitmap() {
    RoaringBitmap rows = RoaringBitmap.bitmapOf(1, 2);
    AssertCellsUnchanged a = new AssertCellsUnchanged(Ref.committed(0), List.of(Ref.committed(0)), rows);
    rows.add(3);
    a.rows().add(4);

    assertThat(a.rows().toArray()).containsExactly(1, 2);
  }

  @Test
  void itRoundTripsAtLancetsWireNumberAndAMalformedBitmapIsRejected() throws Exception {
    AssertCellsUnchanged a = read(Ref.committed(4), List.of(Ref.committed(0), Ref.local(2)), 0, 70_000);
    CompositeOperation op = new CompositeOperation(List.of(new UserStep("update", List.of(a))));

    ActionProtos.CompositeOperation wire = ActionCodec.encode(op);
    assertThat(ActionCodec.decode(ActionProtos.CompositeOperation.parseFrom(wire.toByteArray()))).isEqualTo(op);
    // Field 1001 of Action (docs/wire-numbers.md), a message of fragment 1, fields 2, rows 3.
    ActionProtos.Action encoded = wire.getActions(0).getActions(0);
    assertThat(encoded.getActionCase().getNumber()).isEqualTo(1001);
    assertThat(ActionProtos.AssertCellsUnchanged.getDescriptor().findFieldByName("rows").getNumber()).isEqualTo(3);

    ActionProtos.Action bad = ActionProtos.Action.newBuilder().setAssertCellsUnchanged(
        ActionProtos.AssertCellsUnchanged.newBuilder().setFragment(ActionCodec.ref(Ref.committed(4)))
            .setRows(ByteString.copyFromUtf8("not a bitmap"))).build();
    assertThatThrownBy(() -> ActionCodec.decode(bad)).isInstanceOf(InvalidActionException.class)
        .hasMessageContaining("AssertCellsUnchanged on fragment Committed(4)");
    ActionProtos.Action noFragment = ActionProtos.Action.newBuilder().setAssertCellsUnchanged(
        ActionProtos.AssertCellsUnchanged.getDefaultInstance()).build();
    assertThatThrownBy(() -> ActionCodec.decode(noFragment)).isInstanceOf(InvalidActionException.class)
        .hasMessageContaining("AssertCellsUnchanged.fragment");
  }

  @Test
  void aReaderThatDoesNotKnowTheActionFailsClosed() throws Exception {
    // What a build before this action sees: field 1001 of Action is unknown, so the action is
    // rejected rather than read as an empty one (ActionCodec rejects unknown fields anywhere).
    byte[] bytes = ActionCodec.encode(new CompositeOperation(List.of(new UserStep("update",
        List.of(read(Ref.committed(0), List.of(Ref.committed(0)), 1)))))).toByteArray();
    ActionProtos.CompositeOperation parsed = ActionProtos.CompositeOperation.parseFrom(bytes);
    ActionProtos.Action action = parsed.getActions(0).getActions(0);
    ActionProtos.Action asAnOlderBuildSeesIt = ActionProtos.Action.newBuilder()
        .setUnknownFields(com.google.protobuf.UnknownFieldSet.newBuilder().addField(1001,
            com.google.protobuf.UnknownFieldSet.Field.newBuilder()
                .addLengthDelimited(action.getAssertCellsUnchanged().toByteString()).build()).build())
        .build();

    assertThatThrownBy(() -> ActionCodec.decode(asAnOlderBuildSeesIt)).isInstanceOf(InvalidActionException.class);
  }
}
