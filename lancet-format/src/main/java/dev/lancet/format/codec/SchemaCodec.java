package dev.lancet.format.codec;

import dev.lancet.format.model.Field;
import dev.lancet.format.model.Schema;
import dev.lancet.format.pb.FileProtos;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Converts schema fields between protobuf and the model, losslessly. */
public final class SchemaCodec {
  private SchemaCodec() {}

  public static Field fromProto(FileProtos.Field p) {
    return new Field(
        p.getId(),
        p.getParentId(),
        p.getName(),
        p.getLogicalType(),
        p.getNullable(),
        p.getMetadataMap(),
        p.getUnenforcedPrimaryKey(),
        p.getUnenforcedPrimaryKeyPosition(),
        p.getUnenforcedClusteringKey(),
        p.getUnenforcedClusteringKeyPosition(),
        p.getTypeValue(),
        p.getEncodingValue(),
        p.hasDictionary()
            ? Optional.of(new Field.Dictionary(p.getDictionary().getOffset(), p.getDictionary().getLength()))
            : Optional.empty(),
        p.getExtensionName(),
        p.getUnknownFields());
  }

  public static FileProtos.Field toProto(Field f) {
    FileProtos.Field.Builder b = FileProtos.Field.newBuilder()
        .setTypeValue(f.typeValue())
        .setName(f.name())
        .setId(f.id())
        .setParentId(f.parentId())
        .setLogicalType(f.logicalType())
        .setNullable(f.nullable())
        .setEncodingValue(f.encodingValue())
        .setExtensionName(f.extensionName())
        .putAllMetadata(f.metadata())
        .setUnenforcedPrimaryKey(f.unenforcedPrimaryKey())
        .setUnenforcedPrimaryKeyPosition(f.unenforcedPrimaryKeyPosition())
        .setUnenforcedClusteringKey(f.unenforcedClusteringKey())
        .setUnenforcedClusteringKeyPosition(f.unenforcedClusteringKeyPosition())
        .setUnknownFields(f.unknownFields());
    f.dictionary().ifPresent(d -> b.setDictionary(
        FileProtos.Dictionary.newBuilder().setOffset(d.offset()).setLength(d.length())));
    return b.build();
  }

  public static List<Field> fieldsFromProto(List<FileProtos.Field> fields) {
    List<Field> out = new ArrayList<>(fields.size());
    for (FileProtos.Field p : fields) {
      out.add(fromProto(p));
    }
    return out;
  }

  public static List<FileProtos.Field> fieldsToProto(List<Field> fields) {
    List<FileProtos.Field> out = new ArrayList<>(fields.size());
    for (Field f : fields) {
      out.add(toProto(f));
    }
    return out;
  }

  public static Schema fromProto(FileProtos.Schema p) {
    return new Schema(fieldsFromProto(p.getFieldsList()), p.getMetadataMap());
  }

  public static FileProtos.Schema toProto(Schema s) {
    return FileProtos.Schema.newBuilder()
        .addAllFields(fieldsToProto(s.fields()))
        .putAllMetadata(s.metadata())
        .build();
  }

  /** Schema metadata as the manifest stores it. */
  public static Schema schemaOf(List<FileProtos.Field> fields, Map<String, com.google.protobuf.ByteString> metadata) {
    return new Schema(fieldsFromProto(fields), metadata);
  }
}
