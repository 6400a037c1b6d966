package dev.lancet.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Descriptors.OneofDescriptor;
import com.google.protobuf.Message;
import com.google.protobuf.UnknownFieldSet;
import dev.lancet.format.pb.ActionProtos;
import dev.lancet.format.pb.TransactionProtos.Transaction;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class TransactionsTest {
  @Test
  void operationNamesAreTheLegacyNames() {
    List<String> names = new ArrayList<>();
    for (Transaction t : everyOperation()) {
      names.add(Transactions.operationName(t));
    }
    assertThat(names).containsExactly("Append", "Delete", "Overwrite", "CreateIndex", "Rewrite",
        "Merge", "Restore", "ReserveFragments", "Update", "Project", "UpdateConfig",
        "DataReplacement", "UpdateMemWalState", "Clone", "UpdateBases", "DataOverlay",
        "CompositeOperation");
  }

  @Test
  void anOperationFromANewerLanceShowsItsFieldNumber() {
    Transaction t = Transaction.newBuilder()
        .setUnknownFields(UnknownFieldSet.newBuilder()
            .addField(117, UnknownFieldSet.Field.newBuilder().addLengthDelimited(
                com.google.protobuf.ByteString.EMPTY).build())
            .build())
        .build();
    assertThat(Transactions.operationName(t)).isEqualTo("unknown operation (field 117)");
    assertThat(Transactions.operationName(Transaction.getDefaultInstance())).isEqualTo("no operation");
  }

  @Test
  void everyOperationRendersBrieflyAndInFull() {
    for (Transaction t : everyOperation()) {
      String name = Transactions.operationName(t);
      assertThat(Transactions.brief(t)).as(name).isNotNull();
      StringWriter sw = new StringWriter();
      new TransactionReport(2, t, TableFixture.SCHEMA).print(new PrintWriter(sw));
      assertThat(sw.toString()).as(name).contains("operation:     " + name);
    }
  }

  @Test
  void everyActionRendersWithItsArmName() {
    OneofDescriptor oneof = ActionProtos.Action.getDescriptor().getOneofs().get(0);
    assertThat(oneof.getFields()).hasSize(22);
    for (FieldDescriptor arm : oneof.getFields()) {
      ActionProtos.Action.Builder b = ActionProtos.Action.newBuilder();
      Message empty = b.newBuilderForField(arm).build();
      ActionProtos.Action action = b.setField(arm, empty).build();
      String expected = Transactions.camel(arm.getName().toUpperCase(java.util.Locale.ROOT));
      assertThat(Transactions.action(action)).as(arm.getName()).startsWith(expected);
    }
  }

  @Test
  void actionsNameTheIdsTheyTouch() {
    ActionProtos.Action remove = ActionProtos.Action.newBuilder()
        .setRemoveFragment(ActionProtos.RemoveFragment.newBuilder()
            .setFragment(TableFixture.committed(7)).setDataChange(false))
        .build();
    assertThat(Transactions.action(remove)).isEqualTo("RemoveFragment fragment=7 data_change=false");

    ActionProtos.Action alter = ActionProtos.Action.newBuilder()
        .setAlterField(ActionProtos.AlterField.newBuilder()
            .setField(TableFixture.local(2)).setName("renamed").setNullable(true))
        .build();
    assertThat(Transactions.action(alter)).isEqualTo("AlterField field=local:2 name=renamed nullable=true");
  }

  /** A transaction per arm of the operation oneof, in field-number order, each arm empty. */
  static List<Transaction> everyOperation() {
    OneofDescriptor oneof = Transaction.getDescriptor().findFieldByName("append").getContainingOneof();
    List<Transaction> out = new ArrayList<>();
    for (FieldDescriptor arm : oneof.getFields()) {
      Transaction.Builder b = Transaction.newBuilder().setReadVersion(1).setUuid("u");
      out.add(b.setField(arm, b.newBuilderForField(arm).build()).build());
    }
    return out;
  }
}
