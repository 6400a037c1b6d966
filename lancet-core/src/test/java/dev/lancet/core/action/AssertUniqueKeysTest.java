package dev.lancet.core.action;

import static dev.lancet.core.action.IndexApplyFixtures.applyError;
import static dev.lancet.core.action.IndexApplyFixtures.applyWithIndices;
import static dev.lancet.core.action.IndexApplyFixtures.backedManifest;
import static dev.lancet.core.action.IndexApplyFixtures.field;
import static dev.lancet.core.action.IndexApplyFixtures.sampleIndex;
import static dev.lancet.core.action.IndexApplyFixtures.twoColumnManifest;
import static dev.lancet.core.action.IndexApplyFixtures.uuid;
import static dev.lancet.core.action.IndexApplyFixtures.where;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import dev.lancet.core.apply.ApplyException;
import dev.lancet.core.apply.CompositeApply;
import dev.lancet.format.model.IndexSegment;
import dev.lancet.format.model.Manifest;
import java.util.List;
import org.junit.jupiter.api.Test;

/** AssertUniqueKeys apply behaviour (v2-semantics §3.20, §7.22). */
class AssertUniqueKeysTest {

  private static final KeyExistenceFilter KEYS = new KeyExistenceFilter.Exact(List.of(1L, 2L));

  private static AssertUniqueKeys assertKeys(Ref... keys) {
    return new AssertUniqueKeys(List.of(keys), KEYS);
  }

  @Test
  void anAssertionChangesNothing() {
    Manifest read = twoColumnManifest();
    List<IndexSegment> indices = List.of(sampleIndex(uuid(1), "by_a"));

    CompositeApply.Result asserted = applyWithIndices(read, indices, assertKeys(Ref.committed(0)));
    CompositeApply.Result nothing = applyWithIndices(read, indices);

    assertThat(asserted.manifest().fragments()).isEqualTo(read.fragments());
    assertThat(asserted.manifest().schema()).isEqualTo(read.schema());
    assertThat(asserted.indices()).isEqualTo(indices);
    // Exactly what an empty operation produces.
    assertThat(asserted.manifest()).isEqualTo(nothing.manifest());
    assertThat(asserted.indices()).isEqualTo(nothing.indices());
  }

  @Test
  void aBloomFilterAssertionChangesNothingEither() {
    Manifest read = twoColumnManifest();
    AssertUniqueKeys bloom = new AssertUniqueKeys(List.of(Ref.committed(0), Ref.committed(1)),
        new KeyExistenceFilter.Bloom(ByteString.copyFrom(new byte[32]), 256, 8192, 0.00057));

    CompositeApply.Result r = applyWithIndices(read, List.of(), bloom);

    assertThat(r.manifest()).isEqualTo(applyWithIndices(read, List.of()).manifest());
  }

  @Test
  void assertingOverNoKeyColumnIsRejected() {
    ApplyException e = applyError(backedManifest(), List.of(), assertKeys());

    assertThat(e.problem()).contains("names no key column");
    assertThat(e.where()).isEqualTo(where(1, "AssertUniqueKeys"));
  }

  @Test
  void assertingOverAFieldThatIsNotThereIsRejected() {
    ApplyException e = applyError(backedManifest(), List.of(), assertKeys(Ref.committed(0), Ref.committed(7)));

    assertThat(e.problem()).contains("key field 7").contains("not in the schema");
    assertThat(e.where()).isEqualTo(where(1, "AssertUniqueKeys"));
  }

  @Test
  void aKeyColumnMintedEarlierInTheOperationIsInTheSchema() {
    CompositeApply.Result r = applyWithIndices(backedManifest(), List.of(),
        AddField.topLevel(0, field(0, "k")),
        assertKeys(Ref.local(0)));

    assertThat(r.manifest().schema().field(1)).isPresent();
  }

  @Test
  void aKeyColumnDroppedEarlierInTheOperationIsNotInTheSchema() {
    ApplyException e = applyError(twoColumnManifest(), List.of(),
        new DropField(Ref.committed(1)),
        assertKeys(Ref.committed(0), Ref.committed(1)));

    assertThat(e.problem()).contains("key field 1").contains("not in the schema");
    assertThat(e.where()).isEqualTo(where(2, "AssertUniqueKeys"));
  }

  @Test
  void aTokenNoEarlierActionMintedIsRejected() {
    ApplyException e = applyError(backedManifest(), List.of(), assertKeys(Ref.local(0)));

    assertThat(e.problem()).contains("local field token 0").contains("no earlier action");
    assertThat(e.where()).isEqualTo(where(1, "AssertUniqueKeys"));
  }

  @Test
  void aFieldIdOutOfRangeIsRejected() {
    ApplyException e = applyError(backedManifest(), List.of(), assertKeys(Ref.committed(1L << 31)));

    assertThat(e.problem()).contains("field id 2147483648").contains("out of range");
  }

  @Test
  void isNeverADataChange() {
    assertThat(assertKeys(Ref.committed(0)).isDataChange()).isFalse();
  }
}
