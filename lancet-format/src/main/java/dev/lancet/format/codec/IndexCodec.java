package dev.lancet.format.codec;

import com.google.protobuf.ByteString;
import dev.lancet.format.FormatException;
import dev.lancet.format.model.IndexSegment;
import dev.lancet.format.pb.TableProtos;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.UUID;

/** Converts index segments (IndexMetadata) and UUIDs between protobuf and the model. */
public final class IndexCodec {
  private IndexCodec() {}

  public static IndexSegment fromProto(TableProtos.IndexMetadata p, String where) {
    if (!p.hasUuid()) {
      throw new FormatException(where, "index segment '" + p.getName() + "' has no uuid");
    }
    List<IndexSegment.IndexFile> files = new ArrayList<>(p.getFilesCount());
    for (TableProtos.IndexFile f : p.getFilesList()) {
      files.add(new IndexSegment.IndexFile(f.getPath(), f.getSizeBytes(), f.getUnknownFields()));
    }
    IndexSegment segment = new IndexSegment(
        uuidFromProto(p.getUuid(), where + " index '" + p.getName() + "'"),
        p.getFieldsList(),
        p.getName(),
        p.getDatasetVersion(),
        p.getFragmentBitmap(),
        p.hasIndexDetails() ? Optional.of(p.getIndexDetails()) : Optional.empty(),
        p.hasIndexVersion() ? OptionalInt.of(p.getIndexVersion()) : OptionalInt.empty(),
        p.hasCreatedAt() ? OptionalLong.of(p.getCreatedAt()) : OptionalLong.empty(),
        p.hasBaseId() ? OptionalInt.of(p.getBaseId()) : OptionalInt.empty(),
        files,
        p.getCoveringFieldsList(),
        p.getUnknownFields());
    // The one boundary between manifest bytes and segments, as upstream validates it: every
    // reader may then take the covering fields as the trailing entries of `fields`.
    Optional<String> problem = segment.coveringProblem();
    if (problem.isPresent()) {
      throw new FormatException(where, problem.get());
    }
    return segment;
  }

  public static TableProtos.IndexMetadata toProto(IndexSegment s) {
    TableProtos.IndexMetadata.Builder b = TableProtos.IndexMetadata.newBuilder()
        .setUuid(uuidToProto(s.uuid()))
        .addAllFields(s.fields())
        .addAllCoveringFields(s.coveringFields())
        .setName(s.name())
        .setDatasetVersion(s.datasetVersion())
        .setFragmentBitmap(s.fragmentBitmap())
        .setUnknownFields(s.unknownFields());
    s.indexDetails().ifPresent(b::setIndexDetails);
    s.indexVersion().ifPresent(b::setIndexVersion);
    s.createdAt().ifPresent(b::setCreatedAt);
    s.baseId().ifPresent(b::setBaseId);
    for (IndexSegment.IndexFile f : s.files()) {
      b.addFiles(TableProtos.IndexFile.newBuilder()
          .setPath(f.path())
          .setSizeBytes(f.sizeBytes())
          .setUnknownFields(f.unknownFields()));
    }
    return b.build();
  }

  public static List<IndexSegment> fromProto(TableProtos.IndexSection section, String where) {
    List<IndexSegment> out = new ArrayList<>(section.getIndicesCount());
    for (TableProtos.IndexMetadata m : section.getIndicesList()) {
      out.add(fromProto(m, where));
    }
    return out;
  }

  public static TableProtos.IndexSection toProto(List<IndexSegment> segments) {
    TableProtos.IndexSection.Builder b = TableProtos.IndexSection.newBuilder();
    for (IndexSegment s : segments) {
      b.addIndices(toProto(s));
    }
    return b.build();
  }

  /** A UUID message holds the 16 bytes in RFC 4122 order. */
  public static UUID uuidFromProto(TableProtos.UUID p, String where) {
    ByteString bytes = p.getUuid();
    if (bytes.size() != 16) {
      throw new FormatException(where, "uuid has " + bytes.size() + " bytes, expected 16");
    }
    ByteBuffer buf = bytes.asReadOnlyByteBuffer();
    return new UUID(buf.getLong(), buf.getLong());
  }

  public static TableProtos.UUID uuidToProto(UUID uuid) {
    ByteBuffer buf = ByteBuffer.allocate(16);
    buf.putLong(uuid.getMostSignificantBits()).putLong(uuid.getLeastSignificantBits());
    return TableProtos.UUID.newBuilder().setUuid(ByteString.copyFrom(buf.array())).build();
  }
}
