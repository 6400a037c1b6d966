package dev.lancet.core.commit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lancet.core.action.Action;
import dev.lancet.core.action.AssertCellsUnchanged;
import dev.lancet.core.action.ConfigUpdate;
import dev.lancet.core.action.Ref;
import dev.lancet.core.action.UpdateMap;
import dev.lancet.core.operation.InvalidOperationException;
import dev.lancet.core.operation.Update;
import dev.lancet.core.transaction.TransactionBuilder;
import dev.lancet.core.transaction.WriteForm;
import dev.lancet.format.model.Manifest;
import dev.lancet.format.pb.TransactionProtos.Transaction.OperationCase;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.roaringbitmap.RoaringBitmap;

/** The table config key lancet.write_form and the lowering's choices (docs/decisions/0022). */
class WriteFormTest {
  @TempDir Path dir;

  @Test
  void theKeysValuesAndTheDefault() {
    assertThat(WriteForm.parse("composite")).isEqualTo(WriteForm.COMPOSITE);
    assertThat(WriteForm.parse(" Legacy_When_Exact ")).isEqualTo(WriteForm.LEGACY_WHEN_EXACT);
    assertThat(WriteForm.of(Manifest.builder().version(3).build()))
        .isEqualTo(WriteForm.LEGACY_WHEN_EXACT).isEqualTo(WriteForm.DEFAULT);
    assertThat(WriteForm.of(Manifest.builder().version(3)
        .config(Map.of(WriteForm.CONFIG_KEY, "composite")).build())).isEqualTo(WriteForm.COMPOSITE);
    assertThatThrownBy(() -> WriteForm.of(Manifest.builder().version(3)
        .config(Map.of(WriteForm.CONFIG_KEY, "legacy")).build()))
        .isInstanceOf(InvalidOperationException.class)
        .hasMessageContaining("version 3").hasMessageContaining("'legacy' is not a write form")
        .hasMessageContaining("'composite' or 'legacy_when_exact'");
  }

  @Test
  void anUnknownValueIsRefusedBeforeAnythingIsWritten() throws Exception {
    TwoFieldTable t = new TwoFieldTable(dir);
    long before = t.table.latest().version();
    assertThatThrownBy(() -> t.planned(ConfigUpdate.ofConfig(UpdateMap.set(WriteForm.CONFIG_KEY,
        "sometimes"))).tableWriteForm().commit())
        .isInstanceOf(InvalidOperationException.class).hasMessageContaining("'sometimes'");
    assertThatThrownBy(() -> t.table.newLegacyTransaction(new dev.lancet.core.operation.UpdateConfig(
        java.util.Optional.of(UpdateMap.set(WriteForm.CONFIG_KEY, "never")), java.util.Optional.empty(),
        java.util.Optional.empty(), Map.of())).commit())
        .isInstanceOf(InvalidOperationException.class).hasMessageContaining("'never'");
    assertThat(t.table.latest().version()).isEqualTo(before);
  }

  @Test
  void aTableHoldingAnUnknownValueNamesItAndCanBeRepaired() throws Exception {
    TwoFieldTable t = new TwoFieldTable(dir);
    // As a foreign writer could leave it: the commit loop directly, without the builders' check.
    var bad = dev.lancet.core.operation.LegacyOperationCodec.encode(
        new dev.lancet.core.operation.UpdateConfig(java.util.Optional.of(UpdateMap.set(
            WriteForm.CONFIG_KEY, "legacy")), java.util.Optional.empty(), java.util.Optional.empty(),
            Map.of())).setReadVersion(TwoFieldTable.READ).setUuid("u-1").build();
    long w = new CommitLoop(t.store, dir.toString(), CommitPolicy.DEFAULT, PublishChecks.DEFAULT,
        a -> { }).commit(new LegacyCommit(t.store, bad), java.util.Optional.empty()).version();
    assertThatThrownBy(() -> new TransactionBuilder(t.store, dir.toString(), w)
        .tableWriteForm().step("s", s -> s.setConfig("k", "v")).commit())
        .isInstanceOf(InvalidOperationException.class)
        .hasMessageContaining(WriteForm.CONFIG_KEY).hasMessageContaining("'legacy'");
    CommitResult fixed = new TransactionBuilder(t.store, dir.toString(), w)
        .tableWriteForm().step("repair", s -> s.setConfig(WriteForm.CONFIG_KEY, "composite"))
        .commit();
    assertThat(WriteForm.of(fixed.manifest())).isEqualTo(WriteForm.COMPOSITE);
  }

  @Test
  void aMovingUpdateIsWrittenAsALegacyUpdateByDefaultAndAsACompositeWhenTheTableSaysSo()
      throws Exception {
    TwoFieldTable t = new TwoFieldTable(dir);
    TransactionBuilder update = t.planned(t.movingUpdate(1, 3, 4)).tableWriteForm();
    assertThat(update.lowered()).hasValueSatisfying(op -> assertThat(op).isInstanceOf(Update.class));
    CommitResult r = update.commit();
    assertThat(update.committedForm()).contains("Update");
    assertThat(t.table.version(r.version()).transaction().orElseThrow().getOperationCase())
        .isEqualTo(OperationCase.UPDATE);
    assertThat(t.table.version(r.version()).manifest().transactionSection()).isPresent();

    new TransactionBuilder(t.store, dir.toString(), r.version()).tableWriteForm()
        .step("choose", s -> s.setConfig(WriteForm.CONFIG_KEY, "composite")).commit();
    TransactionBuilder next = new TransactionBuilder(t.store, dir.toString(), r.version() + 1)
        .tableWriteForm().step("set", s -> s.setConfig("k", "v"));
    assertThat(next.lowered()).isEmpty();
    CommitResult c = next.commit();
    assertThat(t.table.version(c.version()).transaction().orElseThrow().getOperationCase())
        .isEqualTo(OperationCase.COMPOSITE_OPERATION);
  }

  @Test
  void badInputInALowerableShapeIsReportedInTheCallersSteps() throws Exception {
    TwoFieldTable t = new TwoFieldTable(dir);
    long before = t.table.latest().version();
    TransactionBuilder append = t.planned(dev.lancet.core.action.AddFragment.local(0, 10),
        new dev.lancet.core.action.AddDataFile(Ref.local(0), TwoFieldTable.file("../a.lance"),
            List.of(Ref.committed(0)), true)).tableWriteForm();
    assertThat(append.lowered()).as("an Append, were it valid").isPresent();
    assertThatThrownBy(append::commit)
        .isInstanceOf(dev.lancet.core.apply.ApplyException.class)
        .hasMessageContaining("step 1 ('step')").hasMessageContaining("'..' segments");
    assertThat(t.table.latest().version()).isEqualTo(before);
  }

  @Test
  void whatNoLegacyOperationCarriesStaysComposite() throws Exception {
    TwoFieldTable t = new TwoFieldTable(dir);
    // A read-set assertion on a fragment the update does not move rows out of.
    List<Action> actions = new ArrayList<>(List.of(t.movingUpdate(1, 3, 4)));
    actions.add(new AssertCellsUnchanged(Ref.committed(2), List.of(Ref.committed(0)),
        RoaringBitmap.bitmapOf(7)));
    assertThat(t.planned(actions.toArray(Action[]::new)).tableWriteForm().lowered()).isEmpty();
    // Two statements in one commit.
    TransactionBuilder two = new TransactionBuilder(t.store, dir.toString(), TwoFieldTable.READ)
        .tableWriteForm()
        .step("a", s -> s.setConfig("a", "1"))
        .step("b", s -> s.setConfig("b", "2"));
    assertThat(two.lowered()).isEmpty();
    CommitResult r = two.commit();
    assertThat(t.table.version(r.version()).transaction().orElseThrow().getOperationCase())
        .isEqualTo(OperationCase.COMPOSITE_OPERATION);
    // The kernel builder states a composite and writes one unless told otherwise.
    assertThat(t.planned(ConfigUpdate.ofConfig(UpdateMap.set("c", "3"))).lowered()).isEmpty();
  }
}
