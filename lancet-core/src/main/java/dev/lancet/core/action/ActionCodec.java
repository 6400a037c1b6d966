package dev.lancet.core.action;

import com.google.protobuf.ByteString;
import dev.lancet.format.FormatException;
import dev.lancet.format.codec.FragmentCodec;
import dev.lancet.format.codec.IndexCodec;
import dev.lancet.format.codec.ManifestCodec;
import dev.lancet.format.codec.SchemaCodec;
import dev.lancet.format.deletion.PortableRoaring;
import dev.lancet.format.model.DataOverlayFile;
import dev.lancet.format.model.IndexSegment;
import dev.lancet.format.model.StoredSequence;
import dev.lancet.format.pb.ActionProtos;
import dev.lancet.format.pb.CommonProtos;
import dev.lancet.format.pb.TableProtos;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * Converts composite operations between protobuf and the model. Decoding is fail-closed: an
 * action with no arm set, a Ref with no kind, a missing required part, a field this build does
 * not know anywhere in the operation (nested messages included, see {@link UnknownFields}), or
 * non-empty bytes that hold no step reject the whole operation. {@code data_change} is written
 * only when false, and absent reads as true, as Lance does. The layout is the newest draft's
 * (lance-format/lance {@code protos/transaction/actions.proto} @83c943b5).
 */
public final class ActionCodec {
  private ActionCodec() {}

  // ---- decode -----------------------------------------------------------------------------

  public static CompositeOperation decode(ActionProtos.CompositeOperation p) {
    UnknownFields.reject(p, "CompositeOperation");
    if (p.getActionsCount() == 0 && p.getSerializedSize() > 0) {
      throw new InvalidActionException("CompositeOperation holds " + p.getSerializedSize() + " byte(s) but no "
          + "step; bytes that decode to nothing are rejected rather than read as an empty operation");
    }
    List<UserStep> steps = new ArrayList<>(p.getActionsCount());
    for (int s = 0; s < p.getActionsCount(); s++) {
      ActionProtos.UserAction step = p.getActions(s);
      List<Action> actions = new ArrayList<>(step.getActionsCount());
      for (int a = 0; a < step.getActionsCount(); a++) {
        try {
          actions.add(decodeChecked(step.getActions(a)));
        } catch (InvalidActionException e) {
          throw new InvalidActionException("step " + (s + 1) + " ('" + step.getDescription()
              + "'), action " + (a + 1) + ": " + e.getMessage());
        }
      }
      steps.add(new UserStep(step.getDescription(), actions));
    }
    return new CompositeOperation(steps);
  }

  /** Decodes one action; a field this build does not know anywhere inside it rejects it. */
  public static Action decode(ActionProtos.Action p) {
    UnknownFields.reject(p, "Action");
    return decodeChecked(p);
  }

  private static Action decodeChecked(ActionProtos.Action p) {
    return switch (p.getActionCase()) {
      case ADD_FRAGMENT -> addFragment(p.getAddFragment());
      case ADD_DATA_FILE -> {
        ActionProtos.AddDataFile a = p.getAddDataFile();
        require(a.hasFragment(), "AddDataFile.fragment");
        require(a.hasFile(), "AddDataFile.file");
        yield new AddDataFile(ref(a.getFragment(), "AddDataFile.fragment"),
            FragmentCodec.fromProto(a.getFile()),
            refs(a.getFieldIdsList(), "AddDataFile.field_ids"), dataChange(a.hasDataChange(), a.getDataChange()));
      }
      case ADD_FIELD -> {
        ActionProtos.AddField a = p.getAddField();
        require(a.hasDef(), "AddField.def");
        yield new AddField(a.getLocal(),
            a.hasParent() ? Optional.of(ref(a.getParent(), "AddField.parent")) : Optional.empty(),
            SchemaCodec.fromProto(a.getDef()));
      }
      case ADD_BASE -> {
        ActionProtos.AddBase a = p.getAddBase();
        require(a.hasBase(), "AddBase.base");
        yield new AddBase(a.getLocal(), ManifestCodec.fromProto(a.getBase()));
      }
      case TOMBSTONE_FIELD_DATA -> {
        ActionProtos.TombstoneFieldData a = p.getTombstoneFieldData();
        require(a.hasFragment(), "TombstoneFieldData.fragment");
        yield new TombstoneFieldData(ref(a.getFragment(), "TombstoneFieldData.fragment"),
            refs(a.getFieldIdsList(), "TombstoneFieldData.field_ids"),
            dataChange(a.hasDataChange(), a.getDataChange()));
      }
      case REMOVE_FRAGMENT -> {
        ActionProtos.RemoveFragment a = p.getRemoveFragment();
        require(a.hasFragment(), "RemoveFragment.fragment");
        yield new RemoveFragment(ref(a.getFragment(), "RemoveFragment.fragment"),
            dataChange(a.hasDataChange(), a.getDataChange()));
      }
      case SET_DELETION_FILE -> {
        ActionProtos.SetDeletionFile a = p.getSetDeletionFile();
        yield new SetDeletionFile(a.getFragment(),
            a.hasDeletionFile()
                ? Optional.of(FragmentCodec.fromProto(a.getDeletionFile()))
                : Optional.empty(),
            dataChange(a.hasDataChange(), a.getDataChange()));
      }
      case CONFIG_UPDATE -> configUpdate(p.getConfigUpdate());
      case ADD_OVERLAYS -> {
        ActionProtos.AddOverlays a = p.getAddOverlays();
        require(a.hasFragment(), "AddOverlays.fragment");
        List<DataOverlayFile> overlays = new ArrayList<>();
        for (TableProtos.DataOverlayFile o : a.getOverlaysList()) {
          try {
            overlays.add(FragmentCodec.fromProto(o, -1));
          } catch (dev.lancet.format.FormatException e) {
            throw new InvalidActionException("AddOverlays: " + e.defect());
          }
        }
        yield new AddOverlays(ref(a.getFragment(), "AddOverlays.fragment"), overlays,
            dataChange(a.hasDataChange(), a.getDataChange()));
      }
      case REFRESH_ROW_VERSION_METADATA -> new RefreshRowVersionMetadata(
          p.getRefreshRowVersionMetadata().getFragmentIdsList());
      case UPDATE_COMPACTED_SS_TABLES -> {
        ActionProtos.UpdateCompactedSsTables a = p.getUpdateCompactedSsTables();
        List<CompactedSsTable> tables = new ArrayList<>();
        for (TableProtos.CompactedSsTable t : a.getCompactedSstablesList()) {
          require(t.hasShardId(), "CompactedSsTable.shard_id");
          tables.add(new CompactedSsTable(uuid(t.getShardId(), "CompactedSsTable.shard_id"), t.getGeneration()));
        }
        yield new UpdateCompactedSsTables(tables);
      }
      case DROP_FIELD -> {
        ActionProtos.DropField a = p.getDropField();
        require(a.hasField(), "DropField.field");
        yield new DropField(ref(a.getField(), "DropField.field"));
      }
      case ALTER_FIELD -> {
        ActionProtos.AlterField a = p.getAlterField();
        require(a.hasField(), "AlterField.field");
        yield new AlterField(ref(a.getField(), "AlterField.field"),
            a.hasName() ? Optional.of(a.getName()) : Optional.empty(),
            a.hasLogicalType() ? Optional.of(a.getLogicalType()) : Optional.empty(),
            a.hasNullable() ? Optional.of(a.getNullable()) : Optional.empty(),
            a.hasNewLocal() ? java.util.OptionalInt.of(a.getNewLocal()) : java.util.OptionalInt.empty());
      }
      case ADD_INDEX_SEGMENT -> addIndexSegment(p.getAddIndexSegment());
      case REMOVE_INDEX_SEGMENT -> {
        ActionProtos.RemoveIndexSegment a = p.getRemoveIndexSegment();
        require(a.hasUuid(), "RemoveIndexSegment.uuid");
        requireName(a.getName(), "RemoveIndexSegment.name");
        yield new RemoveIndexSegment(uuid(a.getUuid(), "RemoveIndexSegment.uuid"), a.getName(),
            dataChange(a.hasDataChange(), a.getDataChange()));
      }
      case ADJUST_INDEX_COVERAGE -> {
        ActionProtos.AdjustIndexCoverage a = p.getAdjustIndexCoverage();
        require(a.hasUuid(), "AdjustIndexCoverage.uuid");
        requireName(a.getName(), "AdjustIndexCoverage.name");
        yield new AdjustIndexCoverage(uuid(a.getUuid(), "AdjustIndexCoverage.uuid"), a.getName(),
            refs(a.getAddFragmentsList(), "AdjustIndexCoverage.add_fragments"), a.getRemoveFragmentsList());
      }
      case RESET_TABLE -> new ResetTable();
      case RESERVE_FRAGMENT_IDS -> new ReserveFragmentIds(
          Integer.toUnsignedLong(p.getReserveFragmentIds().getCount()));
      case RELOCATE_ROWS -> {
        ActionProtos.RelocateRows a = p.getRelocateRows();
        try {
          yield new RelocateRows(a.getFragment(),
              PortableRoaring.read(a.getRows().toByteArray(), "RelocateRows.rows"));
        } catch (FormatException e) {
          throw new InvalidActionException("RelocateRows on fragment " + Long.toUnsignedString(a.getFragment())
              + ": `rows` is not a portable Roaring bitmap (" + e.defect() + ")");
        }
      }
      case ASSERT_CELLS_UNCHANGED -> {
        ActionProtos.AssertCellsUnchanged a = p.getAssertCellsUnchanged();
        require(a.hasFragment(), "AssertCellsUnchanged.fragment");
        Ref fragment = ref(a.getFragment(), "AssertCellsUnchanged.fragment");
        try {
          yield new AssertCellsUnchanged(fragment, refs(a.getFieldsList(), "AssertCellsUnchanged.fields"),
              PortableRoaring.read(a.getRows().toByteArray(), "AssertCellsUnchanged.rows"));
        } catch (FormatException e) {
          throw new InvalidActionException("AssertCellsUnchanged on fragment " + fragment
              + ": `rows` is not a portable Roaring bitmap (" + e.defect() + ")");
        }
      }
      case ASSERT_UNIQUE_KEYS -> {
        ActionProtos.AssertUniqueKeys a = p.getAssertUniqueKeys();
        require(a.hasFilter(), "AssertUniqueKeys.filter");
        yield new AssertUniqueKeys(refs(a.getKeyFieldsList(), "AssertUniqueKeys.key_fields"),
            filter(a.getFilter()));
      }
      case RESERVE_ROW_IDS -> {
        long count = p.getReserveRowIds().getCount();
        if (count < 0) {
          throw new InvalidActionException("ReserveRowIds count " + Long.toUnsignedString(count) + " is too large");
        }
        yield new ReserveRowIds(count);
      }
      case ACTION_NOT_SET -> throw new InvalidActionException("an Action was empty: it sets none of "
          + "the action kinds this Lancet knows (written by a newer writer?); the whole operation "
          + "is rejected rather than read partly");
    };
  }

  private static AddFragment addFragment(ActionProtos.AddFragment a) {
    require(a.hasId(), "AddFragment.id");
    Optional<StoredSequence> rowIds = switch (a.getRowIdSequenceCase()) {
      case INLINE_ROW_IDS -> Optional.of(new StoredSequence.Inline(a.getInlineRowIds()));
      case EXTERNAL_ROW_IDS -> Optional.of(new StoredSequence.External(FragmentCodec.fromProto(a.getExternalRowIds())));
      case ROWIDSEQUENCE_NOT_SET -> Optional.empty();
    };
    Optional<StoredSequence> updated = switch (a.getLastUpdatedAtVersionSequenceCase()) {
      case INLINE_LAST_UPDATED_AT_VERSIONS -> Optional.of(new StoredSequence.Inline(a.getInlineLastUpdatedAtVersions()));
      case EXTERNAL_LAST_UPDATED_AT_VERSIONS ->
          Optional.of(new StoredSequence.External(FragmentCodec.fromProto(a.getExternalLastUpdatedAtVersions())));
      case LASTUPDATEDATVERSIONSEQUENCE_NOT_SET -> Optional.empty();
    };
    Optional<StoredSequence> created = switch (a.getCreatedAtVersionSequenceCase()) {
      case INLINE_CREATED_AT_VERSIONS -> Optional.of(new StoredSequence.Inline(a.getInlineCreatedAtVersions()));
      case EXTERNAL_CREATED_AT_VERSIONS ->
          Optional.of(new StoredSequence.External(FragmentCodec.fromProto(a.getExternalCreatedAtVersions())));
      case CREATEDATVERSIONSEQUENCE_NOT_SET -> Optional.empty();
    };
    return new AddFragment(ref(a.getId(), "AddFragment.id"), a.getPhysicalRows(), rowIds, updated,
        created, dataChange(a.hasDataChange(), a.getDataChange()));
  }

  private static ConfigUpdate configUpdate(ActionProtos.ConfigUpdate a) {
    List<ConfigUpdate.FieldMetadataUpdate> fields = new ArrayList<>();
    for (ActionProtos.ConfigUpdate.FieldMetadata f : a.getFieldMetadataList()) {
      require(f.hasField(), "ConfigUpdate.field_metadata.field");
      require(f.hasUpdates(), "ConfigUpdate.field_metadata.updates");
      fields.add(new ConfigUpdate.FieldMetadataUpdate(ref(f.getField(), "ConfigUpdate.field_metadata.field"),
          updateMap(f.getUpdates())));
    }
    return new ConfigUpdate(
        a.hasConfig() ? Optional.of(updateMap(a.getConfig())) : Optional.empty(),
        a.hasTableMetadata() ? Optional.of(updateMap(a.getTableMetadata())) : Optional.empty(),
        a.hasSchemaMetadata() ? Optional.of(updateMap(a.getSchemaMetadata())) : Optional.empty(),
        fields);
  }

  private static AddIndexSegment addIndexSegment(ActionProtos.AddIndexSegment a) {
    require(a.hasUuid(), "AddIndexSegment.uuid");
    requireName(a.getName(), "AddIndexSegment.name");
    List<IndexSegment.IndexFile> files = new ArrayList<>();
    for (TableProtos.IndexFile f : a.getFilesList()) {
      files.add(new IndexSegment.IndexFile(f.getPath(), f.getSizeBytes(), f.getUnknownFields()));
    }
    Optional<List<Ref>> coverage = a.hasCoveredFragments()
        ? Optional.of(refs(a.getCoveredFragments().getFragmentsList(),
            "AddIndexSegment.covered_fragments"))
        : Optional.empty();
    if (a.hasCreatedAt() && a.getCreatedAt() < 0) {
      throw new InvalidActionException("AddIndexSegment.created_at " + Long.toUnsignedString(a.getCreatedAt())
          + " ms is not a representable time");
    }
    return new AddIndexSegment(uuid(a.getUuid(), "AddIndexSegment.uuid"), a.getName(),
        refs(a.getFieldsList(), "AddIndexSegment.fields"),
        a.hasIndexDetails() ? Optional.of(a.getIndexDetails()) : Optional.empty(),
        a.hasIndexVersion() ? OptionalInt.of(a.getIndexVersion()) : OptionalInt.empty(),
        coverage, files, dataChange(a.hasDataChange(), a.getDataChange()),
        a.hasBase() ? Optional.of(ref(a.getBase(), "AddIndexSegment.base")) : Optional.empty(),
        a.hasCreatedAt() ? OptionalLong.of(a.getCreatedAt()) : OptionalLong.empty(),
        a.hasDatasetVersion() ? OptionalLong.of(a.getDatasetVersion()) : OptionalLong.empty(),
        refs(a.getCoveringFieldsList(), "AddIndexSegment.covering_fields"));
  }

  static UpdateMap updateMap(CommonProtos.UpdateMap p) {
    return UpdateMap.fromProto(p);
  }

  static KeyExistenceFilter filter(CommonProtos.KeyExistenceFilter p) {
    return switch (p.getDataCase()) {
      case EXACT -> new KeyExistenceFilter.Exact(p.getExact().getKeyHashesList());
      case BLOOM -> {
        CommonProtos.BloomFilter b = p.getBloom();
        yield new KeyExistenceFilter.Bloom(b.getBitmap(), b.getNumBits(),
            b.getNumberOfItems() == 0 ? KeyExistenceFilter.DEFAULT_NUMBER_OF_ITEMS : b.getNumberOfItems(),
            b.getProbability() == 0.0 ? KeyExistenceFilter.DEFAULT_PROBABILITY : b.getProbability());
      }
      case DATA_NOT_SET -> new KeyExistenceFilter.Exact(List.of());
    };
  }

  static Ref ref(ActionProtos.Ref p, String where) {
    return switch (p.getKindCase()) {
      case COMMITTED -> new Ref.Committed(p.getCommitted());
      case LOCAL -> new Ref.Local(p.getLocal());
      case KIND_NOT_SET -> throw new InvalidActionException(where + " is a Ref that is neither "
          + "committed nor local; a Ref must be committed or local");
    };
  }

  static List<Ref> refs(List<ActionProtos.Ref> list, String where) {
    List<Ref> out = new ArrayList<>(list.size());
    for (int i = 0; i < list.size(); i++) {
      out.add(ref(list.get(i), where + "[" + i + "]"));
    }
    return out;
  }

  private static java.util.UUID uuid(TableProtos.UUID p, String where) {
    try {
      return IndexCodec.uuidFromProto(p, where);
    } catch (dev.lancet.format.FormatException e) {
      throw new InvalidActionException(e.getMessage());
    }
  }

  private static boolean dataChange(boolean present, boolean value) {
    return !present || value;
  }

  private static void require(boolean present, String field) {
    if (!present) {
      throw new InvalidActionException("`" + field + "` is required but was not set");
    }
  }

  private static void requireName(String name, String field) {
    if (name.isEmpty()) {
      throw new InvalidActionException("`" + field + "` must name the index (it was empty)");
    }
  }

  // ---- encode -----------------------------------------------------------------------------

  public static ActionProtos.CompositeOperation encode(CompositeOperation op) {
    ActionProtos.CompositeOperation.Builder b = ActionProtos.CompositeOperation.newBuilder();
    for (UserStep step : op.steps()) {
      ActionProtos.UserAction.Builder s = ActionProtos.UserAction.newBuilder().setDescription(step.description());
      for (Action a : step.actions()) {
        s.addActions(encode(a));
      }
      b.addActions(s);
    }
    return b.build();
  }

  public static ActionProtos.Action encode(Action action) {
    ActionProtos.Action.Builder b = ActionProtos.Action.newBuilder();
    if (action instanceof AddFragment a) {
      ActionProtos.AddFragment.Builder x = ActionProtos.AddFragment.newBuilder()
          .setId(ref(a.id())).setPhysicalRows(a.physicalRows());
      a.rowIds().ifPresent(s -> {
        if (s instanceof StoredSequence.Inline in) {
          x.setInlineRowIds(in.bytes());
        } else if (s instanceof StoredSequence.External ex) {
          x.setExternalRowIds(FragmentCodec.toProto(ex.file()));
        }
      });
      a.lastUpdatedAtVersions().ifPresent(s -> {
        if (s instanceof StoredSequence.Inline in) {
          x.setInlineLastUpdatedAtVersions(in.bytes());
        } else if (s instanceof StoredSequence.External ex) {
          x.setExternalLastUpdatedAtVersions(FragmentCodec.toProto(ex.file()));
        }
      });
      a.createdAtVersions().ifPresent(s -> {
        if (s instanceof StoredSequence.Inline in) {
          x.setInlineCreatedAtVersions(in.bytes());
        } else if (s instanceof StoredSequence.External ex) {
          x.setExternalCreatedAtVersions(FragmentCodec.toProto(ex.file()));
        }
      });
      if (!a.dataChange()) {
        x.setDataChange(false);
      }
      b.setAddFragment(x);
    } else if (action instanceof AddDataFile a) {
      ActionProtos.AddDataFile.Builder x = ActionProtos.AddDataFile.newBuilder()
          .setFragment(ref(a.fragment())).setFile(FragmentCodec.toProto(a.file()));
      a.fieldIds().forEach(r -> x.addFieldIds(ref(r)));
      if (!a.dataChange()) {
        x.setDataChange(false);
      }
      b.setAddDataFile(x);
    } else if (action instanceof AddField a) {
      ActionProtos.AddField.Builder x = ActionProtos.AddField.newBuilder()
          .setLocal(a.local()).setDef(SchemaCodec.toProto(a.def()));
      a.parent().ifPresent(p -> x.setParent(ref(p)));
      b.setAddField(x);
    } else if (action instanceof AddBase a) {
      b.setAddBase(ActionProtos.AddBase.newBuilder()
        .setLocal(a.local()).setBase(ManifestCodec.toProto(a.base())));
    } else if (action instanceof TombstoneFieldData a) {
      ActionProtos.TombstoneFieldData.Builder x = ActionProtos.TombstoneFieldData.newBuilder()
          .setFragment(ref(a.fragment()));
      a.fieldIds().forEach(r -> x.addFieldIds(ref(r)));
      if (!a.dataChange()) {
        x.setDataChange(false);
      }
      b.setTombstoneFieldData(x);
    } else if (action instanceof RemoveFragment a) {
      ActionProtos.RemoveFragment.Builder x = ActionProtos.RemoveFragment.newBuilder().setFragment(ref(a.fragment()));
      if (!a.dataChange()) {
        x.setDataChange(false);
      }
      b.setRemoveFragment(x);
    } else if (action instanceof SetDeletionFile a) {
      ActionProtos.SetDeletionFile.Builder x = ActionProtos.SetDeletionFile.newBuilder().setFragment(a.fragment());
      a.deletionFile().ifPresent(d -> x.setDeletionFile(FragmentCodec.toProto(d)));
      if (!a.dataChange()) {
        x.setDataChange(false);
      }
      b.setSetDeletionFile(x);
    } else if (action instanceof ConfigUpdate a) {
      ActionProtos.ConfigUpdate.Builder x = ActionProtos.ConfigUpdate.newBuilder();
      a.config().ifPresent(u -> x.setConfig(updateMap(u)));
      a.tableMetadata().ifPresent(u -> x.setTableMetadata(updateMap(u)));
      a.schemaMetadata().ifPresent(u -> x.setSchemaMetadata(updateMap(u)));
      for (ConfigUpdate.FieldMetadataUpdate f : a.fieldMetadata()) {
        x.addFieldMetadata(ActionProtos.ConfigUpdate.FieldMetadata.newBuilder()
            .setField(ref(f.field())).setUpdates(updateMap(f.updates())));
      }
      b.setConfigUpdate(x);
    } else if (action instanceof AddOverlays a) {
      ActionProtos.AddOverlays.Builder x = ActionProtos.AddOverlays.newBuilder().setFragment(ref(a.fragment()));
      a.overlays().forEach(o -> x.addOverlays(FragmentCodec.toProto(o.withCommittedVersion(0))));
      if (!a.dataChange()) {
        x.setDataChange(false);
      }
      b.setAddOverlays(x);
    } else if (action instanceof RefreshRowVersionMetadata a) {
      b.setRefreshRowVersionMetadata(
        ActionProtos.RefreshRowVersionMetadata.newBuilder().addAllFragmentIds(a.fragmentIds()));
    } else if (action instanceof UpdateCompactedSsTables a) {
      ActionProtos.UpdateCompactedSsTables.Builder x = ActionProtos.UpdateCompactedSsTables.newBuilder();
      a.compactedSsTables().forEach(t -> x.addCompactedSstables(TableProtos.CompactedSsTable.newBuilder()
          .setShardId(IndexCodec.uuidToProto(t.shardId())).setGeneration(t.generation())));
      b.setUpdateCompactedSsTables(x);
    } else if (action instanceof DropField a) {
      b.setDropField(ActionProtos.DropField.newBuilder().setField(ref(a.field())));
    } else if (action instanceof AlterField a) {
      ActionProtos.AlterField.Builder x = ActionProtos.AlterField.newBuilder().setField(ref(a.field()));
      a.name().ifPresent(x::setName);
      a.logicalType().ifPresent(x::setLogicalType);
      a.nullable().ifPresent(x::setNullable);
      a.newLocal().ifPresent(x::setNewLocal);
      b.setAlterField(x);
    } else if (action instanceof AddIndexSegment a) {
      ActionProtos.AddIndexSegment.Builder x = ActionProtos.AddIndexSegment.newBuilder()
          .setUuid(IndexCodec.uuidToProto(a.uuid())).setName(a.name());
      a.fields().forEach(r -> x.addFields(ref(r)));
      a.indexDetails().ifPresent(x::setIndexDetails);
      a.indexVersion().ifPresent(x::setIndexVersion);
      a.coveredFragments().ifPresent(c -> {
        ActionProtos.FragmentCoverage.Builder cov = ActionProtos.FragmentCoverage.newBuilder();
        c.forEach(r -> cov.addFragments(ref(r)));
        x.setCoveredFragments(cov);
      });
      a.files().forEach(f -> x.addFiles(TableProtos.IndexFile.newBuilder()
          .setPath(f.path()).setSizeBytes(f.sizeBytes()).setUnknownFields(f.unknownFields())));
      if (!a.dataChange()) {
        x.setDataChange(false);
      }
      a.base().ifPresent(r -> x.setBase(ref(r)));
      a.createdAt().ifPresent(x::setCreatedAt);
      a.datasetVersion().ifPresent(x::setDatasetVersion);
      a.coveringFields().forEach(r -> x.addCoveringFields(ref(r)));
      b.setAddIndexSegment(x);
    } else if (action instanceof RemoveIndexSegment a) {
      ActionProtos.RemoveIndexSegment.Builder x = ActionProtos.RemoveIndexSegment.newBuilder()
          .setUuid(IndexCodec.uuidToProto(a.uuid())).setName(a.name());
      if (!a.dataChange()) {
        x.setDataChange(false);
      }
      b.setRemoveIndexSegment(x);
    } else if (action instanceof AdjustIndexCoverage a) {
      ActionProtos.AdjustIndexCoverage.Builder x = ActionProtos.AdjustIndexCoverage.newBuilder()
          .setUuid(IndexCodec.uuidToProto(a.uuid())).setName(a.name()).addAllRemoveFragments(a.removeFragments());
      a.addFragments().forEach(r -> x.addAddFragments(ref(r)));
      b.setAdjustIndexCoverage(x);
    } else if (action instanceof ResetTable) {
      b.setResetTable(ActionProtos.ResetTable.getDefaultInstance());
    } else if (action instanceof ReserveFragmentIds a) {
      b.setReserveFragmentIds(
        ActionProtos.ReserveFragmentIds.newBuilder().setCount((int) a.count()));
    } else if (action instanceof RelocateRows a) {
      b.setRelocateRows(ActionProtos.RelocateRows.newBuilder().setFragment(a.fragment())
          .setRows(ByteString.copyFrom(PortableRoaring.write(a.rows()))));
    } else if (action instanceof AssertCellsUnchanged a) {
      ActionProtos.AssertCellsUnchanged.Builder x = ActionProtos.AssertCellsUnchanged.newBuilder()
          .setFragment(ref(a.fragment())).setRows(ByteString.copyFrom(PortableRoaring.write(a.rows())));
      a.fields().forEach(r -> x.addFields(ref(r)));
      b.setAssertCellsUnchanged(x);
    } else if (action instanceof AssertUniqueKeys a) {
      ActionProtos.AssertUniqueKeys.Builder x = ActionProtos.AssertUniqueKeys.newBuilder()
          .setFilter(filter(a.filter()));
      a.keyFields().forEach(r -> x.addKeyFields(ref(r)));
      b.setAssertUniqueKeys(x);
    } else if (action instanceof ReserveRowIds a) {
      b.setReserveRowIds(ActionProtos.ReserveRowIds.newBuilder().setCount(a.count()));
    } else {
      throw new IllegalStateException("no encoding for " + action.actionName());
    }
    return b.build();
  }

  static ActionProtos.Ref ref(Ref r) {
    if (r instanceof Ref.Committed c) {
      return ActionProtos.Ref.newBuilder().setCommitted(c.id()).build();
    }
    return ActionProtos.Ref.newBuilder().setLocal(((Ref.Local) r).token()).build();
  }

  static CommonProtos.UpdateMap updateMap(UpdateMap u) {
    return u.toProto();
  }

  /** The filter's own field list is left empty: the assertion's key fields are authoritative. */
  static CommonProtos.KeyExistenceFilter filter(KeyExistenceFilter f) {
    CommonProtos.KeyExistenceFilter.Builder b = CommonProtos.KeyExistenceFilter.newBuilder();
    if (f instanceof KeyExistenceFilter.Exact e) {
      b.setExact(CommonProtos.ExactKeySetFilter.newBuilder().addAllKeyHashes(e.keyHashes()));
    } else if (f instanceof KeyExistenceFilter.Bloom bl) {
      b.setBloom(CommonProtos.BloomFilter.newBuilder()
          .setBitmap(bl.bitmap()).setNumBits(bl.numBits()).setNumberOfItems(bl.numberOfItems())
          .setProbability(bl.probability()));
    }
    return b.build();
  }
}
