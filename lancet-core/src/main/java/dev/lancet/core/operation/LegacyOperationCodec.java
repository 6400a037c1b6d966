package dev.lancet.core.operation;

import com.google.protobuf.ByteString;
import dev.lancet.core.action.CompactedSsTable;
import dev.lancet.core.action.KeyExistenceFilter;
import dev.lancet.core.action.UpdateMap;
import dev.lancet.format.FormatException;
import dev.lancet.format.codec.FragmentCodec;
import dev.lancet.format.codec.IndexCodec;
import dev.lancet.format.codec.ManifestCodec;
import dev.lancet.format.codec.SchemaCodec;
import dev.lancet.format.layout.TransactionFile;
import dev.lancet.format.model.BasePath;
import dev.lancet.format.model.DataOverlayFile;
import dev.lancet.format.model.Fragment;
import dev.lancet.format.model.IndexSegment;
import dev.lancet.format.pb.CommonProtos;
import dev.lancet.format.pb.TableProtos;
import dev.lancet.format.pb.TransactionProtos.Transaction;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.roaringbitmap.RoaringBitmap;

/**
 * Converts a Transaction's legacy operation to and from {@link LegacyOperation}. Decoding fails
 * closed: a missing or unknown operation, a composite operation, or a malformed required part
 * raises {@link InvalidOperationException}. Encoding writes only the current wire style (the
 * deprecated UpdateConfig and Update offset fields decode but are never written).
 */
public final class LegacyOperationCodec {
  private LegacyOperationCodec() {}

  // ---- decode -----------------------------------------------------------------------------

  /** The legacy operation {@code txn} carries. */
  public static LegacyOperation decode(Transaction txn) {
    String name = TransactionFile.operationName(txn);
    try {
      return switch (txn.getOperationCase()) {
        case APPEND -> new Append(fragments(txn.getAppend().getFragmentsList()));
        case DELETE -> new Delete(fragments(txn.getDelete().getUpdatedFragmentsList()),
            txn.getDelete().getDeletedFragmentIdsList(), txn.getDelete().getPredicate());
        case OVERWRITE -> overwrite(txn.getOverwrite());
        case CREATE_INDEX -> new CreateIndex(
            indices(txn.getCreateIndex().getNewIndicesList(), "CreateIndex.new_indices"),
            indices(txn.getCreateIndex().getRemovedIndicesList(), "CreateIndex.removed_indices"));
        case REWRITE -> rewrite(txn.getRewrite());
        case MERGE -> new Merge(fragments(txn.getMerge().getFragmentsList()),
            SchemaCodec.schemaOf(txn.getMerge().getSchemaList(), txn.getMerge().getSchemaMetadataMap()),
            txn.getMerge().getPreservesNullability());
        case RESTORE -> new Restore(txn.getRestore().getVersion());
        case RESERVE_FRAGMENTS -> new ReserveFragments(
            Integer.toUnsignedLong(txn.getReserveFragments().getNumFragments()));
        case UPDATE -> update(txn.getUpdate());
        case PROJECT -> new Project(SchemaCodec.fieldsFromProto(txn.getProject().getSchemaList()),
            txn.getProject().getPreservesNullability());
        case UPDATE_CONFIG -> updateConfig(txn.getUpdateConfig());
        case DATA_REPLACEMENT -> dataReplacement(txn.getDataReplacement());
        case UPDATE_MEM_WAL_STATE -> updateMemWalState(txn.getUpdateMemWalState());
        case CLONE -> new Clone(txn.getClone().getIsShallow(),
            txn.getClone().hasRefName() ? Optional.of(txn.getClone().getRefName()) : Optional.empty(),
            txn.getClone().getRefVersion(), txn.getClone().getRefPath(),
            txn.getClone().hasBranchName() ? Optional.of(txn.getClone().getBranchName()) : Optional.empty());
        case UPDATE_BASES -> new UpdateBases(bases(txn.getUpdateBases().getNewBasesList()));
        case DATA_OVERLAY -> dataOverlay(txn.getDataOverlay());
        case COMPOSITE_OPERATION -> throw new InvalidOperationException(name, "transaction "
            + txn.getUuid() + " carries a Transaction V2 composite operation, not a legacy "
            + "operation; decode it with ActionCodec and apply it with CompositeApply");
        case OPERATION_NOT_SET -> throw new InvalidOperationException(name, "transaction "
            + txn.getUuid() + " (read version " + txn.getReadVersion() + ") carries "
            + (name.equals("no operation") ? "no operation" : "an operation this build does not "
            + "know") + "; it cannot be applied safely, so it is rejected (upgrade Lancet if a "
            + "newer Lance wrote it)");
      };
    } catch (FormatException e) {
      throw new InvalidOperationException(name, "transaction " + txn.getUuid()
          + " is malformed: " + e.getMessage() + "; the writer produced an invalid transaction and "
          + "it cannot be applied", e);
    }
  }

  private static InvalidOperationException malformed(String op, String field, String problem) {
    return new InvalidOperationException(op, field + " " + problem + "; the writer produced an "
        + "invalid transaction, which cannot be applied (fix the writer or re-create the transaction)");
  }

  private static List<Fragment> fragments(List<TableProtos.DataFragment> list) {
    List<Fragment> out = new ArrayList<>(list.size());
    for (TableProtos.DataFragment f : list) {
      out.add(FragmentCodec.fromProto(f));
    }
    return out;
  }

  private static List<IndexSegment> indices(List<TableProtos.IndexMetadata> list, String where) {
    List<IndexSegment> out = new ArrayList<>(list.size());
    for (TableProtos.IndexMetadata m : list) {
      out.add(IndexCodec.fromProto(m, where));
    }
    return out;
  }

  private static List<BasePath> bases(List<TableProtos.BasePath> list) {
    List<BasePath> out = new ArrayList<>(list.size());
    for (TableProtos.BasePath b : list) {
      out.add(ManifestCodec.fromProto(b));
    }
    return out;
  }

  private static Overwrite overwrite(Transaction.Overwrite p) {
    return new Overwrite(fragments(p.getFragmentsList()),
        SchemaCodec.schemaOf(p.getSchemaList(), p.getSchemaMetadataMap()),
        p.getConfigUpsertValuesMap(), bases(p.getInitialBasesList()));
  }

  private static Rewrite rewrite(Transaction.Rewrite p) {
    List<Rewrite.Group> groups = new ArrayList<>();
    if (p.getGroupsCount() > 0) {
      for (Transaction.Rewrite.RewriteGroup g : p.getGroupsList()) {
        groups.add(new Rewrite.Group(fragments(g.getOldFragmentsList()), fragments(g.getNewFragmentsList())));
      }
    } else if (p.getOldFragmentsCount() > 0 || p.getNewFragmentsCount() > 0) {
      // The deprecated single-group form, used only when groups is empty.
      groups.add(new Rewrite.Group(fragments(p.getOldFragmentsList()), fragments(p.getNewFragmentsList())));
    }
    List<Rewrite.RewrittenIndex> rewritten = new ArrayList<>();
    for (Transaction.Rewrite.RewrittenIndex r : p.getRewrittenIndicesList()) {
      if (!r.hasOldId() || !r.hasNewId()) {
        throw malformed("Rewrite", "rewritten_indices entry", "has no " + (r.hasOldId() ? "new_id" : "old_id"));
      }
      List<IndexSegment.IndexFile> files = new ArrayList<>();
      for (TableProtos.IndexFile f : r.getNewIndexFilesList()) {
        files.add(new IndexSegment.IndexFile(f.getPath(), f.getSizeBytes(), f.getUnknownFields()));
      }
      rewritten.add(new Rewrite.RewrittenIndex(
          IndexCodec.uuidFromProto(r.getOldId(), "Rewrite.rewritten_indices.old_id"),
          IndexCodec.uuidFromProto(r.getNewId(), "Rewrite.rewritten_indices.new_id"),
          r.hasNewIndexDetails() ? Optional.of(r.getNewIndexDetails()) : Optional.empty(),
          r.getNewIndexVersion(), files));
    }
    return new Rewrite(groups, rewritten);
  }

  private static Update update(Transaction.Update p) {
    Update.UpdateMode mode = switch (p.getUpdateModeValue()) {
      case 0 -> Update.UpdateMode.REWRITE_ROWS;
      case 1 -> Update.UpdateMode.REWRITE_COLUMNS;
      default -> throw malformed("Update", "update_mode", "has the unknown value "
          + p.getUpdateModeValue() + " (a newer Lance wrote it?)");
    };
    Optional<Update.InsertedRows> inserted = Optional.empty();
    if (p.hasInsertedRows()) {
      CommonProtos.KeyExistenceFilter f = p.getInsertedRows();
      inserted = Optional.of(new Update.InsertedRows(f.getFieldIdsList(), filter(f)));
    }
    Map<Long, ByteString> offsets = new LinkedHashMap<>(p.getUpdatedFragmentOffsetBitmapsMap());
    if (offsets.isEmpty()) {
      // The deprecated list form, read only when the bitmap form is absent.
      for (Map.Entry<Long, Transaction.UInt32List> e : p.getUpdatedFragmentOffsetsMap().entrySet()) {
        RoaringBitmap bitmap = new RoaringBitmap();
        for (int v : e.getValue().getValuesList()) {
          bitmap.add(v);
        }
        offsets.put(e.getKey(), IndexSegment.fragmentBitmapOf(bitmap));
      }
    }
    return new Update(p.getRemovedFragmentIdsList(), fragments(p.getUpdatedFragmentsList()),
        fragments(p.getNewFragmentsList()), p.getFieldsModifiedList(),
        compacted(p.getCompactedSstablesList(), "Update"), p.getFieldsForPreservingFragBitmapList(),
        mode, inserted, offsets);
  }

  private static KeyExistenceFilter filter(CommonProtos.KeyExistenceFilter p) {
    return switch (p.getDataCase()) {
      case EXACT -> new KeyExistenceFilter.Exact(p.getExact().getKeyHashesList());
      case BLOOM -> new KeyExistenceFilter.Bloom(p.getBloom().getBitmap(), p.getBloom().getNumBits(),
          p.getBloom().getNumberOfItems() == 0 ? KeyExistenceFilter.DEFAULT_NUMBER_OF_ITEMS
              : p.getBloom().getNumberOfItems(),
          p.getBloom().getProbability() == 0.0 ? KeyExistenceFilter.DEFAULT_PROBABILITY
              : p.getBloom().getProbability());
      case DATA_NOT_SET -> throw malformed("Update", "inserted_rows", "names key fields but holds "
          + "neither an exact key set nor a Bloom filter");
    };
  }

  private static List<CompactedSsTable> compacted(List<TableProtos.CompactedSsTable> list, String op) {
    List<CompactedSsTable> out = new ArrayList<>(list.size());
    for (TableProtos.CompactedSsTable t : list) {
      if (!t.hasShardId()) {
        throw malformed(op, "compacted_sstables entry", "has no shard_id");
      }
      out.add(new CompactedSsTable(IndexCodec.uuidFromProto(t.getShardId(), op + ".compacted_sstables"),
          t.getGeneration()));
    }
    return out;
  }

  private static UpdateConfig updateConfig(Transaction.UpdateConfig p) {
    boolean newStyle = p.hasConfigUpdates() || p.hasTableMetadataUpdates()
        || p.hasSchemaMetadataUpdates() || p.getFieldMetadataUpdatesCount() > 0;
    boolean oldStyle = p.getUpsertValuesCount() > 0 || p.getDeleteKeysCount() > 0
        || p.getSchemaMetadataCount() > 0 || p.getFieldMetadataCount() > 0;
    if (newStyle && oldStyle) {
      throw malformed("UpdateConfig", "the transaction", "mixes the update-map fields (6-9) with the "
          + "deprecated fields (1-4)");
    }
    if (oldStyle) {
      // The deprecated style as Lance translates it: upserts and deletes merge into the config;
      // schema and field metadata maps replace what was there.
      Optional<UpdateMap> config = p.getUpsertValuesCount() > 0 || p.getDeleteKeysCount() > 0
          ? Optional.of(UpdateMap.merge(new java.util.TreeMap<>(p.getUpsertValuesMap()), p.getDeleteKeysList()))
          : Optional.empty();
      Optional<UpdateMap> schema = p.getSchemaMetadataCount() > 0
          ? Optional.of(replacing(p.getSchemaMetadataMap())) : Optional.empty();
      Map<Integer, UpdateMap> fields = new LinkedHashMap<>();
      p.getFieldMetadataMap().forEach((id, u) -> fields.put(id, replacing(u.getMetadataMap())));
      return new UpdateConfig(config, Optional.empty(), schema, fields);
    }
    Map<Integer, UpdateMap> fields = new LinkedHashMap<>();
    p.getFieldMetadataUpdatesMap().forEach((id, u) -> fields.put(id, updateMap(u)));
    return new UpdateConfig(
        p.hasConfigUpdates() ? Optional.of(updateMap(p.getConfigUpdates())) : Optional.empty(),
        p.hasTableMetadataUpdates() ? Optional.of(updateMap(p.getTableMetadataUpdates())) : Optional.empty(),
        p.hasSchemaMetadataUpdates() ? Optional.of(updateMap(p.getSchemaMetadataUpdates())) : Optional.empty(),
        fields);
  }

  private static UpdateMap replacing(Map<String, String> values) {
    List<UpdateMap.Entry> entries = new ArrayList<>();
    new java.util.TreeMap<>(values).forEach((k, v) -> entries.add(new UpdateMap.Entry(k, Optional.of(v))));
    return new UpdateMap(entries, true);
  }

  private static UpdateMap updateMap(CommonProtos.UpdateMap p) {
    return UpdateMap.fromProto(p);
  }

  private static DataReplacement dataReplacement(Transaction.DataReplacement p) {
    List<DataReplacement.Replacement> out = new ArrayList<>();
    for (Transaction.DataReplacementGroup g : p.getReplacementsList()) {
      if (!g.hasNewFile()) {
        throw malformed("DataReplacement", "the replacement for fragment "
            + Long.toUnsignedString(g.getFragmentId()), "has no new_file");
      }
      out.add(new DataReplacement.Replacement(g.getFragmentId(), FragmentCodec.fromProto(g.getNewFile())));
    }
    return new DataReplacement(out);
  }

  private static UpdateMemWalState updateMemWalState(Transaction.UpdateMemWalState p) {
    if (!p.getUnknownFields().asMap().isEmpty()) {
      java.util.Set<Integer> tags = p.getUnknownFields().asMap().keySet();
      throw new InvalidOperationException("UpdateMemWalState", "carries field(s) " + tags + " this Lancet "
          + "does not know" + (tags.contains(2) ? " (tag 2 was require_index_catchup, removed upstream by "
          + "lance-format/lance#8680 and free for reuse, so its meaning here is unknown)" : "")
          + "; the operation is rejected rather than read without them (upgrade Lancet if a newer "
          + "writer produced it)");
    }
    return new UpdateMemWalState(compacted(p.getCompactedSstablesList(), "UpdateMemWalState"));
  }

  private static DataOverlay dataOverlay(Transaction.DataOverlay p) {
    List<DataOverlay.Group> groups = new ArrayList<>();
    for (Transaction.DataOverlayGroup g : p.getGroupsList()) {
      List<DataOverlayFile> overlays = new ArrayList<>();
      for (TableProtos.DataOverlayFile o : g.getOverlaysList()) {
        overlays.add(FragmentCodec.fromProto(o, g.getFragmentId()));
      }
      groups.add(new DataOverlay.Group(g.getFragmentId(), overlays));
    }
    return new DataOverlay(groups);
  }

  // ---- encode -----------------------------------------------------------------------------

  /** A Transaction builder with only the operation set (the caller adds uuid, read version, ...). */
  public static Transaction.Builder encode(LegacyOperation op) {
    return encodeInto(op, Transaction.newBuilder());
  }

  /** Sets {@code op} as the operation of {@code txn} (replacing any operation it had). */
  public static Transaction.Builder encodeInto(LegacyOperation op, Transaction.Builder txn) {
    if (op instanceof Append a) {
      txn.setAppend(Transaction.Append.newBuilder().addAllFragments(toProto(a.fragments())));
    } else if (op instanceof Delete d) {
      txn.setDelete(Transaction.Delete.newBuilder()
          .addAllUpdatedFragments(toProto(d.updatedFragments()))
          .addAllDeletedFragmentIds(d.deletedFragmentIds())
          .setPredicate(d.predicate()));
    } else if (op instanceof Overwrite o) {
      Transaction.Overwrite.Builder b = Transaction.Overwrite.newBuilder()
          .addAllFragments(toProto(o.fragments()))
          .addAllSchema(SchemaCodec.fieldsToProto(o.schema().fields()))
          .putAllSchemaMetadata(o.schema().metadata())
          .putAllConfigUpsertValues(o.configUpsertValues());
      for (BasePath base : o.initialBases()) {
        b.addInitialBases(ManifestCodec.toProto(base));
      }
      txn.setOverwrite(b);
    } else if (op instanceof CreateIndex c) {
      Transaction.CreateIndex.Builder b = Transaction.CreateIndex.newBuilder();
      c.newIndices().forEach(s -> b.addNewIndices(IndexCodec.toProto(s)));
      c.removedIndices().forEach(s -> b.addRemovedIndices(IndexCodec.toProto(s)));
      txn.setCreateIndex(b);
    } else if (op instanceof Rewrite r) {
      Transaction.Rewrite.Builder b = Transaction.Rewrite.newBuilder();
      for (Rewrite.Group g : r.groups()) {
        b.addGroups(Transaction.Rewrite.RewriteGroup.newBuilder()
            .addAllOldFragments(toProto(g.oldFragments()))
            .addAllNewFragments(toProto(g.newFragments())));
      }
      for (Rewrite.RewrittenIndex ri : r.rewrittenIndices()) {
        Transaction.Rewrite.RewrittenIndex.Builder x = Transaction.Rewrite.RewrittenIndex.newBuilder()
            .setOldId(IndexCodec.uuidToProto(ri.oldId()))
            .setNewId(IndexCodec.uuidToProto(ri.newId()))
            .setNewIndexVersion(ri.newIndexVersion());
        ri.newIndexDetails().ifPresent(x::setNewIndexDetails);
        for (IndexSegment.IndexFile f : ri.newIndexFiles()) {
          x.addNewIndexFiles(TableProtos.IndexFile.newBuilder().setPath(f.path())
              .setSizeBytes(f.sizeBytes()).setUnknownFields(f.unknownFields()));
        }
        b.addRewrittenIndices(x);
      }
      txn.setRewrite(b);
    } else if (op instanceof Merge m) {
      txn.setMerge(Transaction.Merge.newBuilder()
          .addAllFragments(toProto(m.fragments()))
          .addAllSchema(SchemaCodec.fieldsToProto(m.schema().fields()))
          .putAllSchemaMetadata(m.schema().metadata())
          .setPreservesNullability(m.preservesNullability()));
    } else if (op instanceof Restore r) {
      txn.setRestore(Transaction.Restore.newBuilder().setVersion(r.version()));
    } else if (op instanceof ReserveFragments r) {
      txn.setReserveFragments(Transaction.ReserveFragments.newBuilder()
          .setNumFragments((int) r.numFragments()));
    } else if (op instanceof Update u) {
      txn.setUpdate(update(u));
    } else if (op instanceof Project p) {
      txn.setProject(Transaction.Project.newBuilder()
          .addAllSchema(SchemaCodec.fieldsToProto(p.fields()))
          .setPreservesNullability(p.preservesNullability()));
    } else if (op instanceof UpdateConfig u) {
      Transaction.UpdateConfig.Builder b = Transaction.UpdateConfig.newBuilder();
      u.configUpdates().ifPresent(m -> b.setConfigUpdates(updateMap(m)));
      u.tableMetadataUpdates().ifPresent(m -> b.setTableMetadataUpdates(updateMap(m)));
      u.schemaMetadataUpdates().ifPresent(m -> b.setSchemaMetadataUpdates(updateMap(m)));
      u.fieldMetadataUpdates().forEach((id, m) -> b.putFieldMetadataUpdates(id, updateMap(m)));
      txn.setUpdateConfig(b);
    } else if (op instanceof DataReplacement d) {
      Transaction.DataReplacement.Builder b = Transaction.DataReplacement.newBuilder();
      for (DataReplacement.Replacement r : d.replacements()) {
        b.addReplacements(Transaction.DataReplacementGroup.newBuilder()
            .setFragmentId(r.fragmentId()).setNewFile(FragmentCodec.toProto(r.newFile())));
      }
      txn.setDataReplacement(b);
    } else if (op instanceof UpdateMemWalState w) {
      Transaction.UpdateMemWalState.Builder b = Transaction.UpdateMemWalState.newBuilder()
          .addAllCompactedSstables(compacted(w.compactedSsTables()));
      txn.setUpdateMemWalState(b);
    } else if (op instanceof Clone c) {
      Transaction.Clone.Builder b = Transaction.Clone.newBuilder()
          .setIsShallow(c.isShallow()).setRefVersion(c.refVersion()).setRefPath(c.refPath());
      c.refName().ifPresent(b::setRefName);
      c.branchName().ifPresent(b::setBranchName);
      txn.setClone(b);
    } else if (op instanceof UpdateBases u) {
      Transaction.UpdateBases.Builder b = Transaction.UpdateBases.newBuilder();
      u.newBases().forEach(base -> b.addNewBases(ManifestCodec.toProto(base)));
      txn.setUpdateBases(b);
    } else if (op instanceof DataOverlay d) {
      Transaction.DataOverlay.Builder b = Transaction.DataOverlay.newBuilder();
      for (DataOverlay.Group g : d.groups()) {
        Transaction.DataOverlayGroup.Builder x = Transaction.DataOverlayGroup.newBuilder()
            .setFragmentId(g.fragmentId());
        g.overlays().forEach(o -> x.addOverlays(FragmentCodec.toProto(o)));
        b.addGroups(x);
      }
      txn.setDataOverlay(b);
    } else {
      throw new IllegalArgumentException("not a legacy operation: " + op);
    }
    return txn;
  }

  private static Transaction.Update update(Update u) {
    Transaction.Update.Builder b = Transaction.Update.newBuilder()
        .addAllRemovedFragmentIds(u.removedFragmentIds())
        .addAllUpdatedFragments(toProto(u.updatedFragments()))
        .addAllNewFragments(toProto(u.newFragments()))
        .addAllFieldsModified(u.fieldsModified())
        .addAllCompactedSstables(compacted(u.compactedSsTables()))
        .addAllFieldsForPreservingFragBitmap(u.fieldsForPreservingFragBitmap())
        .setUpdateModeValue(u.updateMode() == Update.UpdateMode.REWRITE_COLUMNS ? 1 : 0)
        .putAllUpdatedFragmentOffsetBitmaps(u.updatedFragmentOffsetBitmaps());
    u.insertedRows().ifPresent(ins -> {
      CommonProtos.KeyExistenceFilter.Builder f = CommonProtos.KeyExistenceFilter.newBuilder()
          .addAllFieldIds(ins.keyFieldIds());
      if (ins.filter() instanceof KeyExistenceFilter.Exact e) {
        f.setExact(CommonProtos.ExactKeySetFilter.newBuilder().addAllKeyHashes(e.keyHashes()));
      } else if (ins.filter() instanceof KeyExistenceFilter.Bloom bl) {
        f.setBloom(CommonProtos.BloomFilter.newBuilder().setBitmap(bl.bitmap())
            .setNumBits(bl.numBits()).setNumberOfItems(bl.numberOfItems())
            .setProbability(bl.probability()));
      }
      b.setInsertedRows(f);
    });
    return b.build();
  }

  private static List<TableProtos.DataFragment> toProto(List<Fragment> fragments) {
    List<TableProtos.DataFragment> out = new ArrayList<>(fragments.size());
    for (Fragment f : fragments) {
      out.add(FragmentCodec.toProto(f));
    }
    return out;
  }

  private static List<TableProtos.CompactedSsTable> compacted(List<CompactedSsTable> tables) {
    List<TableProtos.CompactedSsTable> out = new ArrayList<>(tables.size());
    for (CompactedSsTable t : tables) {
      out.add(TableProtos.CompactedSsTable.newBuilder()
          .setShardId(IndexCodec.uuidToProto(t.shardId())).setGeneration(t.generation()).build());
    }
    return out;
  }

  private static CommonProtos.UpdateMap updateMap(UpdateMap u) {
    return u.toProto();
  }
}
