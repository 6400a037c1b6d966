package dev.lancet.core.conflict.legacy;

import dev.lancet.core.action.KeyExistenceFilter;
import dev.lancet.format.deletion.DeletionVector;
import dev.lancet.format.pb.CommonProtos;
import dev.lancet.format.pb.TableProtos;
import dev.lancet.format.pb.TransactionProtos.Transaction;
import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.UnknownFieldSet;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.roaringbitmap.RoaringBitmap;

/** What the conflict rules need to know about a legacy operation, read off its message. */
final class LegacyOps {
  static final String MEM_WAL_INDEX = "__lance_mem_wal";
  static final String FRAG_REUSE_INDEX = "__lance_frag_reuse";

  private LegacyOps() {}

  /** Fragments a Delete or Update changes in place (its updated fragments). */
  static Set<Long> updatedIds(Transaction t) {
    List<TableProtos.DataFragment> updated = t.hasDelete() ? t.getDelete().getUpdatedFragmentsList()
        : t.hasUpdate() ? t.getUpdate().getUpdatedFragmentsList() : List.of();
    Set<Long> ids = new TreeSet<>();
    for (TableProtos.DataFragment f : updated) {
      ids.add(f.getId());
    }
    return ids;
  }

  /** Fragments a Delete or Update removes outright. */
  static Set<Long> removedIds(Transaction t) {
    if (t.hasDelete()) {
      return new TreeSet<>(t.getDelete().getDeletedFragmentIdsList());
    }
    if (t.hasUpdate()) {
      return new TreeSet<>(t.getUpdate().getRemovedFragmentIdsList());
    }
    return new TreeSet<>();
  }

  static Optional<TableProtos.DataFragment> updatedFragment(Transaction t, long id) {
    List<TableProtos.DataFragment> updated = t.hasDelete() ? t.getDelete().getUpdatedFragmentsList()
        : t.hasUpdate() ? t.getUpdate().getUpdatedFragmentsList() : List.of();
    for (TableProtos.DataFragment f : updated) {
      if (f.getId() == id) {
        return Optional.of(f);
      }
    }
    return Optional.empty();
  }

  /** The old fragments a Rewrite replaces (its groups, or the deprecated flat list). */
  static Set<Long> rewrittenIds(Transaction t) {
    Set<Long> ids = new TreeSet<>();
    Transaction.Rewrite r = t.getRewrite();
    if (r.getGroupsCount() == 0) {
      r.getOldFragmentsList().forEach(f -> ids.add(f.getId()));
    }
    for (Transaction.Rewrite.RewriteGroup g : r.getGroupsList()) {
      g.getOldFragmentsList().forEach(f -> ids.add(f.getId()));
    }
    return ids;
  }

  /** A Rewrite's groups as lists of old fragment ids (the deprecated flat list is one group). */
  static List<List<Long>> rewriteGroups(Transaction t) {
    List<List<Long>> groups = new ArrayList<>();
    Transaction.Rewrite r = t.getRewrite();
    if (r.getGroupsCount() == 0) {
      groups.add(r.getOldFragmentsList().stream().map(TableProtos.DataFragment::getId).toList());
    }
    for (Transaction.Rewrite.RewriteGroup g : r.getGroupsList()) {
      groups.add(g.getOldFragmentsList().stream().map(TableProtos.DataFragment::getId).toList());
    }
    return groups;
  }

  static Set<Long> replacedIds(Transaction t) {
    Set<Long> ids = new TreeSet<>();
    t.getDataReplacement().getReplacementsList().forEach(r -> ids.add(r.getFragmentId()));
    return ids;
  }

  static Set<Long> overlaidIds(Transaction t) {
    Set<Long> ids = new TreeSet<>();
    t.getDataOverlay().getGroupsList().forEach(g -> ids.add(g.getFragmentId()));
    return ids;
  }

  /** The fields of a DataOverlay's overlays in {@code fragment} (committed ids only). */
  static Set<Integer> overlaidFields(Transaction.DataOverlayGroup g) {
    Set<Integer> fields = new TreeSet<>();
    for (TableProtos.DataOverlayFile o : g.getOverlaysList()) {
      for (int f : o.getDataFile().getFieldsList()) {
        if (f >= 0) {
          fields.add(f);
        }
      }
    }
    return fields;
  }

  /**
   * The physical offsets one overlay group covers, unioned over its overlays and fields. An
   * overlay that states no coverage, or whose bitmap cannot be read, counts as covering every
   * offset (empty result = "unknown", signalled by {@link Optional#empty()}).
   */
  static Optional<DeletionVector> overlayCoverage(Transaction.DataOverlayGroup g) {
    RoaringBitmap all = new RoaringBitmap();
    for (TableProtos.DataOverlayFile o : g.getOverlaysList()) {
      List<ByteString> bitmaps = new ArrayList<>();
      if (o.hasSharedOffsetBitmap()) {
        bitmaps.add(o.getSharedOffsetBitmap());
      } else if (o.hasFieldCoverage()) {
        bitmaps.addAll(o.getFieldCoverage().getOffsetBitmapsList());
      } else {
        return Optional.empty();
      }
      for (ByteString b : bitmaps) {
        RoaringBitmap r = new RoaringBitmap();
        try {
          r.deserialize(ByteBuffer.wrap(b.toByteArray()));
        } catch (IOException | RuntimeException e) {
          return Optional.empty();
        }
        all.or(r);
      }
    }
    return Optional.of(DeletionVector.fromBitmap(all));
  }

  /** A CreateIndex segment's fragment bitmap; empty when it records none. */
  static Optional<RoaringBitmap> fragmentBitmap(TableProtos.IndexMetadata index) {
    if (index.getFragmentBitmap().isEmpty()) {
      return Optional.empty();
    }
    RoaringBitmap r = new RoaringBitmap();
    try {
      r.deserialize(ByteBuffer.wrap(index.getFragmentBitmap().toByteArray()));
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    }
    return Optional.of(r);
  }

  /** Whether an Update moves the rows it changes into new fragments (RewriteRows with output). */
  static boolean movesRows(Transaction.Update u) {
    return u.getNewFragmentsCount() > 0 && u.getUpdateMode() == Transaction.UpdateMode.REWRITE_ROWS;
  }

  static boolean hasIndexNamed(List<TableProtos.IndexMetadata> indices, String name) {
    return indices.stream().anyMatch(i -> i.getName().equals(name));
  }

  // ---- UpdateConfig, with the deprecated fields folded into the current ones -------------------

  /** Config keys an operation sets (Overwrite's upserts, UpdateConfig's entries with a value). */
  static Set<String> upsertedConfigKeys(Transaction t) {
    Set<String> keys = new LinkedHashSet<>();
    if (t.hasOverwrite()) {
      keys.addAll(t.getOverwrite().getConfigUpsertValuesMap().keySet());
    } else if (t.hasUpdateConfig()) {
      Transaction.UpdateConfig c = t.getUpdateConfig();
      if (c.hasConfigUpdates()) {
        c.getConfigUpdates().getUpdateEntriesList().stream().filter(CommonProtos.UpdateMapEntry::hasValue)
            .forEach(e -> keys.add(e.getKey()));
      } else {
        keys.addAll(c.getUpsertValuesMap().keySet());
      }
    }
    return keys;
  }

  /** Config keys an UpdateConfig deletes. */
  static Set<String> deletedConfigKeys(Transaction t) {
    Set<String> keys = new LinkedHashSet<>();
    if (t.hasUpdateConfig()) {
      Transaction.UpdateConfig c = t.getUpdateConfig();
      if (c.hasConfigUpdates()) {
        c.getConfigUpdates().getUpdateEntriesList().stream().filter(e -> !e.hasValue())
            .forEach(e -> keys.add(e.getKey()));
      } else {
        keys.addAll(c.getDeleteKeysList());
      }
    }
    return keys;
  }

  /** Upstream's upsert_key_conflict: one side sets a config key the other sets or deletes. */
  static Optional<String> upsertKeyConflict(Transaction a, Transaction b) {
    Set<String> aSet = upsertedConfigKeys(a);
    Set<String> bSet = upsertedConfigKeys(b);
    Set<String> aDel = deletedConfigKeys(a);
    Set<String> bDel = deletedConfigKeys(b);
    for (String k : aSet) {
      if (bSet.contains(k) || bDel.contains(k)) {
        return Optional.of(k);
      }
    }
    for (String k : bSet) {
      if (aDel.contains(k)) {
        return Optional.of(k);
      }
    }
    return Optional.empty();
  }

  /** An UpdateConfig's schema-metadata update, if it has one (deprecated form included). */
  static Optional<CommonProtos.UpdateMap> schemaMetadataUpdate(Transaction.UpdateConfig c) {
    if (c.hasSchemaMetadataUpdates()) {
      return Optional.of(c.getSchemaMetadataUpdates());
    }
    if (c.getSchemaMetadataCount() > 0) {
      CommonProtos.UpdateMap.Builder m = CommonProtos.UpdateMap.newBuilder();
      c.getSchemaMetadataMap().forEach((k, v) -> m.addUpdateEntries(
          CommonProtos.UpdateMapEntry.newBuilder().setKey(k).setValue(v)));
      return Optional.of(m.build());
    }
    return Optional.empty();
  }

  /** An UpdateConfig's field-metadata updates by field id (deprecated form included). */
  static Map<Integer, CommonProtos.UpdateMap> fieldMetadataUpdates(Transaction.UpdateConfig c) {
    Map<Integer, CommonProtos.UpdateMap> out = new LinkedHashMap<>(c.getFieldMetadataUpdatesMap());
    if (out.isEmpty()) {
      c.getFieldMetadataMap().forEach((field, update) -> {
        CommonProtos.UpdateMap.Builder m = CommonProtos.UpdateMap.newBuilder();
        update.getMetadataMap().forEach((k, v) -> m.addUpdateEntries(
            CommonProtos.UpdateMapEntry.newBuilder().setKey(k).setValue(v)));
        out.put(field, m.build());
      });
    }
    return out;
  }

  /** Upstream's updates_schema_or_field_metadata, the G2 predicate. */
  static boolean updatesSchemaOrFieldMetadata(Transaction t) {
    if (!t.hasUpdateConfig()) {
      return false;
    }
    Transaction.UpdateConfig c = t.getUpdateConfig();
    boolean schema = schemaMetadataUpdate(c).map(LegacyOps::changesSomething).orElse(false);
    boolean field = fieldMetadataUpdates(c).values().stream().anyMatch(LegacyOps::changesSomething);
    return schema || field;
  }

  private static boolean changesSomething(CommonProtos.UpdateMap m) {
    return m.getReplace() || m.getUpdateEntriesCount() > 0;
  }

  /** Upstream's modifies_same_metadata for two UpdateConfigs, with the colliding part named. */
  static Optional<String> modifiesSameMetadata(Transaction.UpdateConfig a, Transaction.UpdateConfig b) {
    if (a.hasTableMetadataUpdates() && b.hasTableMetadataUpdates()) {
      CommonProtos.UpdateMap x = a.getTableMetadataUpdates();
      CommonProtos.UpdateMap y = b.getTableMetadataUpdates();
      if (x.getReplace() || y.getReplace()) {
        return Optional.of("the table metadata (one side replaces it)");
      }
      Set<String> keys = new LinkedHashSet<>();
      x.getUpdateEntriesList().forEach(e -> keys.add(e.getKey()));
      for (CommonProtos.UpdateMapEntry e : y.getUpdateEntriesList()) {
        if (keys.contains(e.getKey())) {
          return Optional.of("table metadata key '" + e.getKey() + "'");
        }
      }
    }
    if (schemaMetadataUpdate(a).isPresent() && schemaMetadataUpdate(b).isPresent()) {
      return Optional.of("the schema metadata");
    }
    Set<Integer> shared = new TreeSet<>(fieldMetadataUpdates(a).keySet());
    shared.retainAll(fieldMetadataUpdates(b).keySet());
    if (!shared.isEmpty()) {
      return Optional.of("the metadata of fields " + shared);
    }
    return Optional.empty();
  }

  // ---- key filters and MemWAL progress -----------------------------------------------------

  static KeyExistenceFilter filter(CommonProtos.KeyExistenceFilter p) {
    if (p.hasBloom()) {
      CommonProtos.BloomFilter b = p.getBloom();
      return new KeyExistenceFilter.Bloom(b.getBitmap(), b.getNumBits(),
          b.getNumberOfItems() == 0 ? KeyExistenceFilter.DEFAULT_NUMBER_OF_ITEMS : b.getNumberOfItems(),
          b.getProbability() == 0.0 ? KeyExistenceFilter.DEFAULT_PROBABILITY : b.getProbability());
    }
    return new KeyExistenceFilter.Exact(p.getExact().getKeyHashesList());
  }

  /**
   * The compacted SSTables recorded in a MemWAL index's details (MemWalIndexDetails field 9);
   * empty when the details cannot be read.
   */
  static Optional<List<TableProtos.CompactedSsTable>> memWalProgress(TableProtos.IndexMetadata index) {
    List<TableProtos.CompactedSsTable> out = new ArrayList<>();
    try {
      UnknownFieldSet parsed = UnknownFieldSet.parseFrom(index.getIndexDetails().getValue());
      for (ByteString entry : parsed.getField(9).getLengthDelimitedList()) {
        out.add(TableProtos.CompactedSsTable.parseFrom(entry));
      }
    } catch (InvalidProtocolBufferException e) {
      return Optional.empty();
    }
    return Optional.of(out);
  }

  static String shard(TableProtos.CompactedSsTable t) {
    return java.util.HexFormat.of().formatHex(t.getShardId().getUuid().toByteArray());
  }

  static String ids(Set<Long> ids) {
    return ids.stream().map(Long::toUnsignedString).toList().toString();
  }

  static Set<Long> intersection(Set<Long> a, Set<Long> b) {
    Set<Long> out = new TreeSet<>(a);
    out.retainAll(b);
    return out;
  }
}
