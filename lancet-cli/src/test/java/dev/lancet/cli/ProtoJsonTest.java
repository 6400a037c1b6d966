package dev.lancet.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.Any;
import com.google.protobuf.ByteString;
import dev.lancet.format.pb.TableProtos;
import org.junit.jupiter.api.Test;

class ProtoJsonTest {
  private static TableProtos.IndexSection sectionWith(Any details) {
    return TableProtos.IndexSection.newBuilder()
        .addIndices(TableProtos.IndexMetadata.newBuilder().setName("i").setIndexDetails(details))
        .build();
  }

  @Test
  void printsKnownDetailTypesWithTheirContent() {
    Any details = Any.pack(TableProtos.FragmentReuseIndexDetails.newBuilder()
        .setExternal(TableProtos.ExternalFile.newBuilder().setPath("_indices/x").setSize(5)).build());

    String json = ProtoJson.print(sectionWith(details));

    assertThat(json).contains("\"@type\": \"type.googleapis.com/lance.table.FragmentReuseIndexDetails\"")
        .contains("\"path\": \"_indices/x\"");
  }

  @Test
  void printsEmptyDetailsOfAnUnknownType() {
    String json = ProtoJson.print(sectionWith(Any.newBuilder().setTypeUrl("/lance.table.ZoneMapIndexDetails").build()));

    assertThat(json).contains("\"@type\": \"/lance.table.ZoneMapIndexDetails\"");
  }

  @Test
  void refusesNonEmptyDetailsOfAnUnknownType() {
    Any details = Any.newBuilder().setTypeUrl("/lance.index.InvertedIndexDetails")
        .setValue(ByteString.copyFrom(new byte[] {0x0a, 0x01, 0x41})).build();

    assertThatThrownBy(() -> ProtoJson.print(sectionWith(details)))
        .isInstanceOf(CliException.class)
        .hasMessageContaining("/lance.index.InvertedIndexDetails");
  }

  @Test
  void refusesWhenAnyOfSeveralDetailsOfOneTypeIsNonEmpty() {
    String url = "/lance.index.InvertedIndexDetails";
    TableProtos.IndexSection section = TableProtos.IndexSection.newBuilder()
        .addIndices(TableProtos.IndexMetadata.newBuilder().setName("a")
            .setIndexDetails(Any.newBuilder().setTypeUrl(url)))
        .addIndices(TableProtos.IndexMetadata.newBuilder().setName("b")
            .setIndexDetails(Any.newBuilder().setTypeUrl(url).setValue(ByteString.copyFromUtf8("x"))))
        .build();

    assertThatThrownBy(() -> ProtoJson.print(section)).isInstanceOf(CliException.class);
  }

}
