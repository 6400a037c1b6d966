package dev.lancet.format;

import com.google.protobuf.Any;
import com.google.protobuf.ByteString;
import dev.lancet.format.model.BasePath;
import dev.lancet.format.model.DataFile;
import dev.lancet.format.model.DataOverlayFile;
import dev.lancet.format.model.DataStorageFormat;
import dev.lancet.format.model.DeletionFile;
import dev.lancet.format.model.ExternalFile;
import dev.lancet.format.model.Field;
import dev.lancet.format.model.Fragment;
import dev.lancet.format.model.IndexSegment;
import dev.lancet.format.model.Manifest;
import dev.lancet.format.model.Schema;
import dev.lancet.format.model.StoredSequence;
import dev.lancet.format.model.WriterVersion;
import com.google.protobuf.UnknownFieldSet;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.UUID;

/** Manifests with every part filled in, for round-trip and corruption tests. */
public final class ManifestSamples {
  private ManifestSamples() {}

  public static Schema schema() {
    return new Schema(List.of(
        Field.builder(0, "id", "int64").nullable(false).unenforcedPrimaryKey(true)
            .unenforcedPrimaryKeyPosition(1).build(),
        Field.builder(1, "name", "string").metadata(Map.of("k", ByteString.copyFromUtf8("v"))).build(),
        Field.builder(2, "point", "struct").build(),
        Field.builder(3, "x", "double").parentId(2).build(),
        Field.builder(4, "y", "double").parentId(2).build()),
        Map.of("owner", ByteString.copyFromUtf8("tests")));
  }

  public static DataFile dataFile(String path, List<Integer> fields) {
    List<Integer> columns = new ArrayList<>();
    for (int i = 0; i < fields.size(); i++) {
      columns.add(i);
    }
    return new DataFile(path, fields, columns, 2, 1, 1234);
  }

  /** A manifest of {@code fragments} fragments with deletions, row ids and an overlay. */
  public static Manifest manifest(long version, int fragments) {
    List<Fragment> frags = new ArrayList<>();
    for (int i = 0; i < fragments; i++) {
      Fragment.Builder b = Fragment.builder(i)
          .physicalRows(100 + i)
          .files(List.of(dataFile("0101" + i + ".lance", List.of(0, 1, 2, 3, 4))));
      if (i % 3 == 1) {
        b.deletionFile(Optional.of(new DeletionFile(DeletionFile.Kind.ARROW_ARRAY, version - 1, 77L + i, 3)));
      }
      if (i % 5 == 2) {
        b.rowIds(Optional.of(StoredSequence.inline(new byte[] {10, 4, 10, 2, 8, 5})));
        b.lastUpdatedAtVersions(Optional.of(new StoredSequence.External(new ExternalFile("meta/lu.bin", 8, 16))));
      }
      if (i == 4) {
        b.overlays(List.of(new DataOverlayFile(dataFile("ov" + i + ".lance", List.of(1)),
            new DataOverlayFile.SharedCoverage(IndexSegment.fragmentBitmapOf(List.of(1L, 2L))),
            version, UnknownFieldSet.getDefaultInstance())));
      }
      frags.add(b.build());
    }
    return Manifest.builder()
        .schema(schema())
        .fragments(frags)
        .version(version)
        .writerVersion(Optional.of(WriterVersion.LANCET))
        .timestamp(Optional.of(Instant.ofEpochSecond(1_700_000_000L, 123_000_000)))
        .tag("nightly")
        .readerFeatureFlags(1)
        .writerFeatureFlags(9)
        .maxFragmentId(OptionalLong.of(Math.max(0, fragments - 1) + 2L))
        .transactionFile(version - 1 + "-" + new UUID(1, 2) + ".txn")
        .nextRowId(0)
        .dataFormat(Optional.of(new DataStorageFormat("lance", "2.1")))
        .config(Map.of("lance.auto_cleanup.interval", "20", "custom", "x"))
        .tableMetadata(Map.of("team", "data"))
        .basePaths(List.of(new BasePath(1, Optional.of("archive"), true, "/mnt/archive/t")))
        .branch(Optional.empty())
        .build();
  }

  public static List<IndexSegment> indices() {
    return List.of(new IndexSegment(new UUID(0x1234, 0x5678), List.of(0), "id_idx", 3,
        IndexSegment.fragmentBitmapOf(List.of(0L, 1L, 2L)),
        Optional.of(Any.newBuilder().setTypeUrl("/lance.table.BTreeIndexDetails").build()),
        OptionalInt.of(0), OptionalLong.of(1_700_000_000_000L), OptionalInt.empty(),
        List.of(new IndexSegment.IndexFile("index.idx", 4096, UnknownFieldSet.getDefaultInstance())), List.of(),
        UnknownFieldSet.getDefaultInstance()));
  }
}
