package dev.lancet.core.apply;

import com.google.protobuf.Any;
import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.UnknownFieldSet;
import dev.lancet.format.FormatException;
import dev.lancet.format.codec.IndexCodec;
import dev.lancet.format.model.IndexSegment;
import dev.lancet.format.pb.TableProtos;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * The SSTable compaction progress a MemWAL index records: {@code MemWalIndexDetails.compacted_sstables}
 * (field 9, repeated CompactedSsTable; lance-format/lance protos/table.proto @08d52669), one
 * generation per shard. Lancet does not mirror MemWalIndexDetails, so it edits that one field
 * and keeps every other field of the details as read.
 */
public final class MemWalProgress {
  private MemWalProgress() {}

  static final int COMPACTED_SSTABLES = 9;
  static final String DETAILS_TYPE_URL = "/lance.table.MemWalIndexDetails";

  /** Per shard, the generation compacted into the table, in recorded order. */
  public static Map<UUID, Long> of(IndexSegment memWal) {
    checkType(memWal);
    Map<UUID, Long> progress = new LinkedHashMap<>();
    for (ByteString entry : details(memWal).getField(COMPACTED_SSTABLES).getLengthDelimitedList()) {
      try {
        TableProtos.CompactedSsTable t = TableProtos.CompactedSsTable.parseFrom(entry);
        progress.put(IndexCodec.uuidFromProto(t.getShardId(), "MemWAL index"), t.getGeneration());
      } catch (InvalidProtocolBufferException e) {
        throw new FormatException(where(memWal), "it records an unreadable SSTable entry: " + e.getMessage());
      }
    }
    return progress;
  }

  /** {@code memWal} recording {@code progress} instead, stamped as reflecting {@code datasetVersion}. */
  public static IndexSegment with(IndexSegment memWal, Map<UUID, Long> progress, long datasetVersion) {
    checkType(memWal);
    UnknownFieldSet.Field.Builder field = UnknownFieldSet.Field.newBuilder();
    progress.forEach((shard, gen) -> field.addLengthDelimited(TableProtos.CompactedSsTable.newBuilder()
        .setShardId(IndexCodec.uuidToProto(shard)).setGeneration(gen).build().toByteString()));
    UnknownFieldSet updated = UnknownFieldSet.newBuilder(details(memWal)).clearField(COMPACTED_SSTABLES)
        .addField(COMPACTED_SSTABLES, field.build()).build();
    Any any = memWal.indexDetails().orElse(Any.newBuilder().setTypeUrl(DETAILS_TYPE_URL).build())
        .toBuilder().setValue(updated.toByteString()).build();
    return new IndexSegment(memWal.uuid(), memWal.fields(), memWal.name(), datasetVersion,
        memWal.fragmentBitmap(), Optional.of(any), memWal.indexVersion(), memWal.createdAt(), memWal.baseId(),
        memWal.files(), memWal.coveringFields(), memWal.unknownFields());
  }

  private static UnknownFieldSet details(IndexSegment memWal) {
    ByteString bytes = memWal.indexDetails().map(Any::getValue).orElse(ByteString.EMPTY);
    try {
      return UnknownFieldSet.parseFrom(bytes);
    } catch (InvalidProtocolBufferException e) {
      throw new FormatException(where(memWal), "its details are unreadable: " + e.getMessage());
    }
  }

  private static void checkType(IndexSegment memWal) {
    String typeUrl = memWal.detailsTypeUrl();
    String typeName = typeUrl.substring(typeUrl.lastIndexOf('/') + 1);
    if (memWal.indexDetails().isPresent()
        && !(typeName.equals("MemWalIndexDetails") || typeName.endsWith(".MemWalIndexDetails"))) {
      throw new FormatException(where(memWal), "it carries details of type '" + typeUrl
          + "', not MemWalIndexDetails, so its progress cannot be read or recorded");
    }
  }

  private static String where(IndexSegment memWal) {
    return "the MemWAL index (" + memWal.name() + ", segment " + memWal.uuid() + ")";
  }
}
