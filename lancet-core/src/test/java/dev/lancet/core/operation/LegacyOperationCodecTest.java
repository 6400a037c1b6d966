package dev.lancet.core.operation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.UnknownFieldSet;
import dev.lancet.format.layout.TransactionFile;
import dev.lancet.format.pb.ActionProtos;
import dev.lancet.format.pb.TransactionProtos.Transaction;
import java.util.HashSet;
import java.util.Random;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

class LegacyOperationCodecTest {

  @Provide
  Arbitrary<LegacyOperation> operations() {
    return Arbitraries.integers().between(0, RandomOperations.KINDS - 1).flatMap(kind ->
        Arbitraries.longs().map(seed -> new RandomOperations(new Random(seed)).any(kind)));
  }

  @Property(tries = 400)
  void everyOperationSurvivesTheWireUnchanged(@ForAll("operations") LegacyOperation op) throws Exception {
    Transaction txn = LegacyOperationCodec.encode(op).setUuid("u").setReadVersion(3).build();
    Transaction reparsed = Transaction.parseFrom(txn.toByteArray());
    assertThat(LegacyOperationCodec.decode(reparsed)).isEqualTo(op);
    assertThat(op.operationName()).isEqualTo(TransactionFile.operationName(reparsed));
  }

  @Test
  void allSixteenKindsAreGenerated() {
    Set<String> names = new HashSet<>();
    for (int k = 0; k < RandomOperations.KINDS; k++) {
      LegacyOperation op = new RandomOperations(new Random(k)).any(k);
      names.add(op.operationName());
      assertThat(op.operationName()).isEqualTo(
          TransactionFile.operationName(LegacyOperationCodec.encode(op).build()));
    }
    assertThat(names).hasSize(16);
  }

  @Test
  void aTransactionWithoutOperationIsRejected() {
    assertThatThrownBy(() -> LegacyOperationCodec.decode(Transaction.newBuilder().setUuid("t1").build()))
        .isInstanceOf(InvalidOperationException.class)
        .hasMessageContaining("t1").hasMessageContaining("no operation");
  }

  @Test
  void anUnknownOperationIsRejected() {
    Transaction txn = Transaction.newBuilder().setUuid("t2").setUnknownFields(UnknownFieldSet.newBuilder()
        .addField(150, UnknownFieldSet.Field.newBuilder().addLengthDelimited(
            com.google.protobuf.ByteString.EMPTY).build()).build()).build();
    assertThatThrownBy(() -> LegacyOperationCodec.decode(txn))
        .isInstanceOf(InvalidOperationException.class)
        .hasMessageContaining("field 150").hasMessageContaining("upgrade");
  }

  @Test
  void aCompositeOperationIsNotALegacyOperation() {
    Transaction txn = Transaction.newBuilder().setUuid("t3")
        .setCompositeOperation(ActionProtos.CompositeOperation.getDefaultInstance()).build();
    assertThatThrownBy(() -> LegacyOperationCodec.decode(txn))
        .isInstanceOf(InvalidOperationException.class)
        .hasMessageContaining("CompositeOperation").hasMessageContaining("CompositeApply");
  }

  @Test
  void aReplacementWithoutNewFileIsRejected() {
    Transaction txn = Transaction.newBuilder().setDataReplacement(Transaction.DataReplacement.newBuilder()
        .addReplacements(Transaction.DataReplacementGroup.newBuilder().setFragmentId(7))).build();
    assertThatThrownBy(() -> LegacyOperationCodec.decode(txn))
        .isInstanceOf(InvalidOperationException.class)
        .hasMessageStartingWith("DataReplacement").hasMessageContaining("fragment 7")
        .hasMessageContaining("new_file");
  }

  @Test
  void aRewrittenIndexWithoutIdIsRejected() {
    Transaction txn = Transaction.newBuilder().setRewrite(Transaction.Rewrite.newBuilder()
        .addRewrittenIndices(Transaction.Rewrite.RewrittenIndex.newBuilder())).build();
    assertThatThrownBy(() -> LegacyOperationCodec.decode(txn))
        .isInstanceOf(InvalidOperationException.class).hasMessageContaining("old_id");
  }

  @Test
  void anIndexWithAShortUuidIsRejected() {
    Transaction txn = Transaction.newBuilder().setCreateIndex(Transaction.CreateIndex.newBuilder()
        .addNewIndices(dev.lancet.format.pb.TableProtos.IndexMetadata.newBuilder().setName("i")
            .setUuid(dev.lancet.format.pb.TableProtos.UUID.newBuilder()
                .setUuid(com.google.protobuf.ByteString.copyFrom(new byte[3]))))).build();
    assertThatThrownBy(() -> LegacyOperationCodec.decode(txn))
        .isInstanceOf(InvalidOperationException.class)
        .hasMessageStartingWith("CreateIndex").hasMessageContaining("16");
  }

  @Test
  void mixingUpdateConfigStylesIsRejected() {
    Transaction txn = Transaction.newBuilder().setUpdateConfig(Transaction.UpdateConfig.newBuilder()
        .putUpsertValues("a", "1")
        .setConfigUpdates(dev.lancet.format.pb.CommonProtos.UpdateMap.getDefaultInstance())).build();
    assertThatThrownBy(() -> LegacyOperationCodec.decode(txn))
        .isInstanceOf(InvalidOperationException.class).hasMessageContaining("mixes");
  }

  @Test
  void theDeprecatedUpdateConfigStyleDecodesIntoUpdateMaps() {
    Transaction txn = Transaction.newBuilder().setUpdateConfig(Transaction.UpdateConfig.newBuilder()
        .putUpsertValues("a", "1").addDeleteKeys("b")).build();
    UpdateConfig op = (UpdateConfig) LegacyOperationCodec.decode(txn);
    assertThat(op.configUpdates()).contains(dev.lancet.core.action.UpdateMap.merge(
        java.util.Map.of("a", "1"), java.util.List.of("b")));
  }

  /**
   * Tag 2 of UpdateMemWalState was require_index_catchup until lance-format/lance#8680 removed it
   * and reclaimed the tag. It is never read as a catch-up request: in any wire type, and any
   * other unknown field, it rejects the operation (bytes in the old layout, hand-encoded).
   */
  @Test
  void theRemovedCatchUpTagIsNeverMisread() throws Exception {
    for (com.google.protobuf.UnknownFieldSet.Field tag2 : java.util.List.of(
        com.google.protobuf.UnknownFieldSet.Field.newBuilder().addVarint(1).build(),
        com.google.protobuf.UnknownFieldSet.Field.newBuilder().addVarint(0).build(),
        com.google.protobuf.UnknownFieldSet.Field.newBuilder()
            .addLengthDelimited(com.google.protobuf.ByteString.copyFromUtf8("x")).build())) {
      byte[] bytes = Transaction.newBuilder().setUuid("mw").setUpdateMemWalState(
          Transaction.UpdateMemWalState.newBuilder().setUnknownFields(
              com.google.protobuf.UnknownFieldSet.newBuilder().addField(2, tag2).build())).build().toByteArray();
      Transaction txn = Transaction.parseFrom(bytes);
      assertThatThrownBy(() -> LegacyOperationCodec.decode(txn))
          .isInstanceOf(InvalidOperationException.class)
          .hasMessageContaining("UpdateMemWalState").hasMessageContaining("[2]")
          .hasMessageContaining("require_index_catchup").hasMessageContaining("8680");
    }
  }
}
