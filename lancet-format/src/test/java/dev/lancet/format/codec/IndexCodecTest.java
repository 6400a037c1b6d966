package dev.lancet.format.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.UnknownFieldSet;
import dev.lancet.format.FormatException;
import dev.lancet.format.model.IndexSegment;
import dev.lancet.format.pb.TableProtos;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * IndexMetadata.covering_fields (field 11, lance-format/lance protos/table.proto @08d52669,
 * shipped in v11.0.0): kept through a round trip and checked, when read, against the legacy
 * contract the way upstream's {@code IndexMetadata::try_from} does (rust/lance-table/src/format/index.rs
 * @e3db7c06): a suffix of {@code fields}, distinct, leaving at least one key.
 */
class IndexCodecTest {

  private static TableProtos.IndexMetadata index(List<Integer> fields, List<Integer> covering) {
    return TableProtos.IndexMetadata.newBuilder()
        .setUuid(IndexCodec.uuidToProto(new UUID(3, 4))).setName("covered")
        .addAllFields(fields).addAllCoveringFields(covering).build();
  }

  /** Seen before the fix: field 11 was an unknown field, invisible to Lancet's index rules. */
  @Test
  void coveringFieldsAreField11AndSurviveARoundTrip() throws Exception {
    TableProtos.IndexMetadata p = index(List.of(7, 11, 13), List.of(11, 13));
    UnknownFieldSet raw = UnknownFieldSet.parseFrom(p.toByteArray());
    assertThat(raw.hasField(11)).isTrue();

    IndexSegment s = IndexCodec.fromProto(TableProtos.IndexMetadata.parseFrom(p.toByteArray()), "test");
    assertThat(s.coveringFields()).containsExactly(11, 13);
    assertThat(s.keyedFields()).containsExactly(7);
    assertThat(s.unknownFields().asMap()).isEmpty();
    assertThat(IndexCodec.toProto(s)).isEqualTo(p);
  }

  @Test
  void aMalformedDeclarationIsRefusedOnRead() {
    assertThatThrownBy(() -> IndexCodec.fromProto(index(List.of(7, 11), List.of(7)), "m.manifest"))
        .isInstanceOf(FormatException.class).hasMessageContaining("must come last");
    assertThatThrownBy(() -> IndexCodec.fromProto(index(List.of(7, 11), List.of(9)), "m.manifest"))
        .isInstanceOf(FormatException.class).hasMessageContaining("not among its fields");
    assertThatThrownBy(() -> IndexCodec.fromProto(index(List.of(7, 11, 11), List.of(11, 11)), "m.manifest"))
        .isInstanceOf(FormatException.class).hasMessageContaining("more than once");
    assertThatThrownBy(() -> IndexCodec.fromProto(index(List.of(7), List.of(7)), "m.manifest"))
        .isInstanceOf(FormatException.class).hasMessageContaining("at least one field must remain a key");
  }

  @Test
  void aKeyCarriedTooIsLegalInTheLegacyForm() {
    // fields = [7, 7], covering = [7]: keyed on 7 and carrying its values (the refine-vector case).
    IndexSegment s = IndexCodec.fromProto(index(List.of(7, 7), List.of(7)), "test");
    assertThat(s.keyedFields()).containsExactly(7);
  }
}
