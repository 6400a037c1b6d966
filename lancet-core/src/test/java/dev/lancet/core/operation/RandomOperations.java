package dev.lancet.core.operation;

import com.google.protobuf.Any;
import com.google.protobuf.ByteString;
import dev.lancet.core.action.CompactedSsTable;
import dev.lancet.core.action.KeyExistenceFilter;
import dev.lancet.core.action.UpdateMap;
import dev.lancet.format.model.BasePath;
import dev.lancet.format.model.DataFile;
import dev.lancet.format.model.DataOverlayFile;
import dev.lancet.format.model.DeletionFile;
import dev.lancet.format.model.Field;
import dev.lancet.format.model.Fragment;
import dev.lancet.format.model.IndexSegment;
import dev.lancet.format.model.Schema;
import dev.lancet.format.model.StoredSequence;
import dev.lancet.format.rowids.RowIdSequence;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Random;
import java.util.UUID;
import java.util.function.Supplier;

/** Random instances of every legacy operation, for codec properties. */
final class RandomOperations {
  private final Random r;

  RandomOperations(Random r) {
    this.r = r;
  }

  static final int KINDS = 16;

  LegacyOperation any(int kind) {
    return switch (kind) {
      case 0 -> new Append(list(this::fragment));
      case 1 -> new Delete(list(this::fragment), list(() -> (long) r.nextInt(50)), text());
      case 2 -> new Overwrite(list(this::fragment), schema(), map(), list(this::base));
      case 3 -> new CreateIndex(list(this::index), list(this::index));
      case 4 -> new Rewrite(list(() -> new Rewrite.Group(list(this::fragment), list(this::fragment))),
          list(() -> new Rewrite.RewrittenIndex(UUID.randomUUID(), UUID.randomUUID(),
              r.nextBoolean() ? Optional.of(Any.newBuilder().setTypeUrl("/lance.table.BTreeIndexDetails")
                  .setValue(bytes()).build()) : Optional.empty(),
              r.nextInt(5), list(() -> new IndexSegment.IndexFile(text(), r.nextInt(1000),
                  com.google.protobuf.UnknownFieldSet.getDefaultInstance())))));
      case 5 -> new DataReplacement(list(() -> new DataReplacement.Replacement(r.nextInt(20), dataFile())));
      case 6 -> new DataOverlay(list(() -> new DataOverlay.Group(r.nextInt(20), list(this::overlay))));
      case 7 -> new Merge(list(this::fragment), schema(), r.nextBoolean());
      case 8 -> new Restore(r.nextInt(100));
      case 9 -> new ReserveFragments(r.nextInt(1000));
      case 10 -> new Update(list(() -> (long) r.nextInt(50)), list(this::fragment), list(this::fragment),
          list(() -> r.nextInt(10)), list(() -> new CompactedSsTable(UUID.randomUUID(), r.nextInt(9))),
          list(() -> r.nextInt(10)), r.nextBoolean() ? Update.UpdateMode.REWRITE_ROWS
              : Update.UpdateMode.REWRITE_COLUMNS,
          r.nextBoolean() ? Optional.empty() : Optional.of(new Update.InsertedRows(list(() -> r.nextInt(5)),
              r.nextBoolean() ? new KeyExistenceFilter.Exact(list(r::nextLong))
                  : new KeyExistenceFilter.Bloom(bytes(), 64, 8192, 0.01))),
          offsets());
      case 11 -> new Project(schema().fields(), r.nextBoolean());
      case 12 -> new UpdateConfig(optMap(), optMap(), optMap(), fieldMaps());
      case 13 -> new UpdateMemWalState(list(() -> new CompactedSsTable(UUID.randomUUID(), r.nextInt(9))));
      case 14 -> new Clone(r.nextBoolean(), r.nextBoolean() ? Optional.of(text()) : Optional.empty(),
          r.nextInt(20), "/tmp/" + text(), r.nextBoolean() ? Optional.of(text()) : Optional.empty());
      default -> new UpdateBases(list(this::base));
    };
  }

  private <T> List<T> list(Supplier<T> item) {
    int n = r.nextInt(4);
    List<T> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(item.get());
    }
    return out;
  }

  private String text() {
    return "s" + Integer.toHexString(r.nextInt(1 << 20));
  }

  private ByteString bytes() {
    byte[] b = new byte[r.nextInt(6)];
    r.nextBytes(b);
    return ByteString.copyFrom(b);
  }

  private Map<String, String> map() {
    Map<String, String> m = new LinkedHashMap<>();
    for (int i = r.nextInt(3); i > 0; i--) {
      m.put(text(), text());
    }
    return m;
  }

  private Optional<UpdateMap> optMap() {
    if (r.nextBoolean()) {
      return Optional.empty();
    }
    return Optional.of(updateMap());
  }

  private UpdateMap updateMap() {
    return new UpdateMap(list(() -> new UpdateMap.Entry(text(),
        r.nextBoolean() ? Optional.of(text()) : Optional.empty())), r.nextBoolean());
  }

  private Map<Integer, UpdateMap> fieldMaps() {
    Map<Integer, UpdateMap> m = new LinkedHashMap<>();
    for (int i = r.nextInt(3); i > 0; i--) {
      m.put(r.nextInt(10), updateMap());
    }
    return m;
  }

  private Map<Long, ByteString> offsets() {
    Map<Long, ByteString> m = new LinkedHashMap<>();
    for (int i = r.nextInt(3); i > 0; i--) {
      m.put((long) r.nextInt(20), IndexSegment.fragmentBitmapOf(List.of((long) r.nextInt(100))));
    }
    return m;
  }

  private Schema schema() {
    List<Field> fields = new ArrayList<>();
    int n = 1 + r.nextInt(3);
    for (int i = 0; i < n; i++) {
      fields.add(Field.builder(i, "c" + i, r.nextBoolean() ? "int64" : "string")
          .nullable(r.nextBoolean()).build());
    }
    Map<String, ByteString> md = new LinkedHashMap<>();
    if (r.nextBoolean()) {
      md.put("k", ByteString.copyFromUtf8(text()));
    }
    return new Schema(fields, md);
  }

  private BasePath base() {
    return new BasePath(r.nextInt(5), r.nextBoolean() ? Optional.of(text()) : Optional.empty(),
        r.nextBoolean(), "/data/" + text());
  }

  DataFile dataFile() {
    return new DataFile(text() + ".lance", list(() -> r.nextInt(8)), list(() -> r.nextInt(8)), 2,
        r.nextInt(2), r.nextInt(10_000), r.nextBoolean() ? OptionalInt.of(r.nextInt(3)) : OptionalInt.empty(),
        com.google.protobuf.UnknownFieldSet.getDefaultInstance());
  }

  private DataOverlayFile overlay() {
    DataOverlayFile.Coverage c = r.nextBoolean()
        ? new DataOverlayFile.SharedCoverage(IndexSegment.fragmentBitmapOf(List.of(1L, 2L)))
        : new DataOverlayFile.PerFieldCoverage(List.of(IndexSegment.fragmentBitmapOf(List.of(3L))));
    return new DataOverlayFile(dataFile(), c, r.nextInt(5), com.google.protobuf.UnknownFieldSet.getDefaultInstance());
  }

  Fragment fragment() {
    long rows = 1 + r.nextInt(100);
    Fragment.Builder b = Fragment.builder(r.nextInt(30)).physicalRows(rows).files(list(this::dataFile));
    if (r.nextBoolean()) {
      b.deletionFile(Optional.of(new DeletionFile(r.nextBoolean() ? DeletionFile.Kind.ARROW_ARRAY
          : DeletionFile.Kind.BITMAP, r.nextInt(9), r.nextLong(), r.nextInt((int) rows))));
    }
    if (r.nextBoolean()) {
      b.rowIds(Optional.of(StoredSequence.inline(RowIdSequence.ofRange(r.nextInt(1000), rows).encode())));
    }
    if (r.nextInt(4) == 0) {
      b.overlays(list(this::overlay));
    }
    return b.build();
  }

  private IndexSegment index() {
    return new IndexSegment(UUID.randomUUID(), list(() -> r.nextInt(5)), "idx" + r.nextInt(3),
        r.nextInt(10), IndexSegment.fragmentBitmapOf(List.of((long) r.nextInt(10))),
        Optional.empty(), r.nextBoolean() ? OptionalInt.of(1) : OptionalInt.empty(),
        r.nextBoolean() ? OptionalLong.of(r.nextInt(1 << 30)) : OptionalLong.empty(),
        OptionalInt.empty(), List.of(), List.of(), com.google.protobuf.UnknownFieldSet.getDefaultInstance());
  }
}
