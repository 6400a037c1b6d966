package dev.lancet.format.layout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import com.google.protobuf.UnknownFieldSet;
import dev.lancet.format.FormatException;
import dev.lancet.format.ManifestSamples;
import dev.lancet.format.codec.ManifestCodec;
import dev.lancet.format.model.Manifest;
import dev.lancet.format.pb.TableProtos;
import dev.lancet.format.pb.TransactionProtos;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ManifestFileTest {

  private static final TransactionProtos.Transaction TXN = TransactionProtos.Transaction.newBuilder()
      .setReadVersion(4)
      .setUuid("00000000-0000-0001-0000-000000000002")
      .setAppend(TransactionProtos.Transaction.Append.getDefaultInstance())
      .build();

  @Test
  void roundTripsEverySection() {
    Manifest m = ManifestSamples.manifest(5, 12);
    byte[] bytes = ManifestFile.write(m, ManifestSamples.indices(), Optional.of(TXN));
    ManifestFile.Contents read = ManifestFile.read(bytes, "5.manifest");

    assertThat(read.manifest().fragments()).isEqualTo(m.fragments());
    assertThat(read.manifest().schema()).isEqualTo(m.schema());
    assertThat(read.manifest().toBuilder().indexSection(m.indexSection())
        .transactionSection(m.transactionSection()).build()).isEqualTo(m);
    assertThat(read.indices()).isEqualTo(ManifestSamples.indices());
    assertThat(read.inlineTransaction()).contains(TXN);
    // Sections come before the manifest, in Lance's order: indices, then transaction.
    assertThat(read.manifest().indexSection()).hasValue(0);
    assertThat(read.manifest().transactionSection().getAsLong()).isGreaterThan(0);
  }

  @Test
  void footerIsLanceVersionZeroTwo() {
    byte[] bytes = ManifestFile.write(ManifestSamples.manifest(1, 1), List.of(), Optional.empty());
    ByteBuffer buf = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    int end = bytes.length;
    assertThat(Arrays.copyOfRange(bytes, end - 4, end)).isEqualTo(new byte[] {'L', 'A', 'N', 'C'});
    assertThat(buf.getShort(end - 8)).isEqualTo((short) 0);
    assertThat(buf.getShort(end - 6)).isEqualTo((short) 2);
    long offset = buf.getLong(end - 16);
    assertThat(Integer.toUnsignedLong(buf.getInt((int) offset))).isEqualTo(end - 16 - offset - 4);
  }

  @Test
  void unknownFieldsSurviveReadModifyWrite() throws Exception {
    // A newer Lance may add fields we do not know: at the manifest, fragment and file level.
    UnknownFieldSet extra = UnknownFieldSet.newBuilder()
        .addField(99, UnknownFieldSet.Field.newBuilder().addVarint(7).build())
        .addField(100, UnknownFieldSet.Field.newBuilder()
            .addLengthDelimited(ByteString.copyFromUtf8("future")).build())
        .build();
    TableProtos.Manifest proto = ManifestCodec.toProto(ManifestSamples.manifest(3, 2));
    TableProtos.Manifest.Builder b = proto.toBuilder().setUnknownFields(extra);
    b.getFragmentsBuilder(0).setUnknownFields(extra);
    b.getFragmentsBuilder(1).getFilesBuilder(0).setUnknownFields(extra);
    b.getFieldsBuilder(1).setUnknownFields(extra);

    Manifest read = ManifestCodec.fromProto(TableProtos.Manifest.parseFrom(b.build().toByteArray()));
    Manifest modified = read.toBuilder().config(java.util.Map.of("changed", "yes")).build();
    TableProtos.Manifest rewritten = ManifestCodec.toProto(modified);

    assertThat(rewritten.getUnknownFields()).isEqualTo(extra);
    assertThat(rewritten.getFragments(0).getUnknownFields()).isEqualTo(extra);
    assertThat(rewritten.getFragments(1).getFiles(0).getUnknownFields()).isEqualTo(extra);
    assertThat(rewritten.getFields(1).getUnknownFields()).isEqualTo(extra);
    assertThat(rewritten.getConfigMap()).containsEntry("changed", "yes");
  }

  @Test
  void rejectsTooShortFile() {
    assertThatThrownBy(() -> ManifestFile.read(new byte[10], "1.manifest"))
        .isInstanceOf(FormatException.class)
        .hasMessageContaining("1.manifest")
        .hasMessageContaining("shorter than the 16-byte footer");
  }

  @Test
  void rejectsWrongMagic() {
    byte[] bytes = ManifestFile.write(ManifestSamples.manifest(1, 1), List.of(), Optional.empty());
    bytes[bytes.length - 1] = 'X';
    assertThatThrownBy(() -> ManifestFile.read(bytes, "1.manifest"))
        .isInstanceOf(FormatException.class).hasMessageContaining("wrong magic");
  }

  @Test
  void rejectsOffsetPastTheEnd() {
    byte[] bytes = ManifestFile.write(ManifestSamples.manifest(1, 1), List.of(), Optional.empty());
    ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).putLong(bytes.length - 16, 1L << 40);
    assertThatThrownBy(() -> ManifestFile.read(bytes, "1.manifest"))
        .isInstanceOf(FormatException.class).hasMessageContaining("outside the file");
  }

  @Test
  void rejectsLengthThatDoesNotReachTheFooter() {
    byte[] bytes = ManifestFile.write(ManifestSamples.manifest(1, 1), List.of(), Optional.empty());
    ByteBuffer buf = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    long offset = buf.getLong(bytes.length - 16);
    buf.putInt((int) offset, Integer.MAX_VALUE);
    assertThatThrownBy(() -> ManifestFile.read(bytes, "1.manifest"))
        .isInstanceOf(FormatException.class).hasMessageContaining("does not reach the footer");
  }

  @Test
  void rejectsColumnarManifest() {
    byte[] bytes = ManifestFile.write(ManifestSamples.manifest(1, 1), List.of(), Optional.empty());
    ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN)
        .putShort(bytes.length - 8, (short) 2).putShort(bytes.length - 6, (short) 1);
    assertThatThrownBy(() -> ManifestFile.read(bytes, "1.manifest"))
        .isInstanceOf(FormatException.class).hasMessageContaining("columnar");
  }

  @Test
  void rejectsIndexSectionPastTheEnd() {
    Manifest m = ManifestSamples.manifest(1, 1);
    byte[] good = ManifestFile.write(m, ManifestSamples.indices(), Optional.empty());
    ByteBuffer.wrap(good).order(ByteOrder.LITTLE_ENDIAN).putInt(0, Integer.MAX_VALUE);
    ManifestFile.Contents contents = ManifestFile.read(good, "1.manifest");
    assertThatThrownBy(contents::indices)
        .isInstanceOf(FormatException.class)
        .hasMessageContaining("index section length");
  }

  @Test
  void corruptManifestMessageNamesTheFile() {
    byte[] bytes = ManifestFile.write(ManifestSamples.manifest(1, 1), List.of(), Optional.empty());
    ByteBuffer buf = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    int offset = (int) buf.getLong(bytes.length - 16);
    // An invalid wire type (7) in the first tag of the message.
    bytes[offset + 4] = (byte) 0x0F;
    assertThatThrownBy(() -> ManifestFile.read(bytes, "_versions/1.manifest"))
        .isInstanceOf(FormatException.class)
        .hasMessageStartingWith("_versions/1.manifest: ");
  }
}
