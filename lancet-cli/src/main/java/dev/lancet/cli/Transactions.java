package dev.lancet.cli;

import com.google.protobuf.UnknownFieldSet;
import dev.lancet.format.FormatException;
import dev.lancet.format.codec.FragmentCodec;
import dev.lancet.format.deletion.PortableRoaring;
import dev.lancet.format.layout.TransactionFile;
import dev.lancet.format.pb.ActionProtos;
import dev.lancet.format.pb.CommonProtos;
import dev.lancet.format.pb.TableProtos;
import dev.lancet.format.pb.TransactionProtos.Transaction;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/** Names and one-line renderings of transactions, their operations and V2 actions. */
final class Transactions {
  private Transactions() {}

  /**
   * The operation's name as the oneof arm names it ("Append", "UpdateMemWalState",
   * "CompositeOperation"); an arm this build does not know shows its field number.
   */
  static String operationName(Transaction t) {
    return TransactionFile.operationName(t);
  }

  /** A V2 action's arm name ("AddFragment"); an unknown arm shows its field number. */
  static String actionName(ActionProtos.Action a) {
    if (a.getActionCase() != ActionProtos.Action.ActionCase.ACTION_NOT_SET) {
      return camel(a.getActionCase().name());
    }
    UnknownFieldSet unknown = a.getUnknownFields();
    return unknown.asMap().isEmpty()
        ? "(no action set)"
        : "unknown action (field " + unknown.asMap().keySet().iterator().next() + ")";
  }

  /** The step descriptions of a composite operation, in order; empty for a legacy one. */
  static List<String> steps(Transaction t) {
    return dev.lancet.core.transaction.StatementName.steps(t);
  }

  /**
   * Why a composite operation cannot be read (a field this build does not know at any depth,
   * such as the older layout's steps in field 3), or empty: such an operation is never shown as
   * an empty one.
   */
  static java.util.Optional<String> unreadable(ActionProtos.CompositeOperation op) {
    try {
      dev.lancet.core.action.ActionCodec.decode(op);
      return java.util.Optional.empty();
    } catch (dev.lancet.core.action.InvalidActionException e) {
      return java.util.Optional.of(e.getMessage());
    }
  }

  /** UPPER_SNAKE to UpperCamel: UPDATE_MEM_WAL_STATE to UpdateMemWalState. */
  static String camel(String upperSnake) {
    return TransactionFile.upperCamel(upperSnake);
  }

  /** A short summary of what the transaction did, for one row of {@code lancet log}. */
  static String brief(Transaction t) {
    return switch (t.getOperationCase()) {
      case APPEND -> fragments(t.getAppend().getFragmentsList());
      case DELETE -> {
        Transaction.Delete d = t.getDelete();
        String s = d.getUpdatedFragmentsCount() + " updated, " + d.getDeletedFragmentIdsCount()
            + " removed fragments";
        yield d.getPredicate().isEmpty() ? s : s + "; predicate: " + d.getPredicate();
      }
      case OVERWRITE -> fragments(t.getOverwrite().getFragmentsList()) + ", "
          + Formats.count(t.getOverwrite().getSchemaCount(), "field");
      case CREATE_INDEX -> "+" + t.getCreateIndex().getNewIndicesCount() + " -"
          + t.getCreateIndex().getRemovedIndicesCount() + " index segments "
          + indexNames(t.getCreateIndex().getNewIndicesList(), t.getCreateIndex().getRemovedIndicesList());
      case REWRITE -> rewrite(t.getRewrite());
      case MERGE -> Formats.count(t.getMerge().getFragmentsCount(), "fragment") + ", "
          + Formats.count(t.getMerge().getSchemaCount(), "field");
      case PROJECT -> Formats.count(t.getProject().getSchemaCount(), "field");
      case RESTORE -> "to version " + Formats.unsigned(t.getRestore().getVersion());
      case RESERVE_FRAGMENTS -> Integer.toUnsignedString(t.getReserveFragments().getNumFragments())
          + " fragment ids";
      case UPDATE -> {
        Transaction.Update u = t.getUpdate();
        yield u.getRemovedFragmentIdsCount() + " removed, " + u.getUpdatedFragmentsCount()
            + " updated, " + u.getNewFragmentsCount() + " new fragments ("
            + u.getUpdateMode().name().toLowerCase(Locale.ROOT) + ")";
      }
      case UPDATE_CONFIG -> updateConfig(t.getUpdateConfig());
      case DATA_REPLACEMENT -> Formats.count(t.getDataReplacement().getReplacementsCount(), "replaced file");
      case UPDATE_MEM_WAL_STATE -> Formats.count(
          t.getUpdateMemWalState().getCompactedSstablesCount(), "compacted sstable");
      case CLONE -> (t.getClone().getIsShallow() ? "shallow" : "deep") + " clone of "
          + t.getClone().getRefPath() + " at version " + Formats.unsigned(t.getClone().getRefVersion());
      case UPDATE_BASES -> Formats.count(t.getUpdateBases().getNewBasesCount(), "new base");
      case DATA_OVERLAY -> Formats.count(t.getDataOverlay().getGroupsCount(), "fragment") + " with overlays";
      case COMPOSITE_OPERATION -> unreadable(t.getCompositeOperation()).map(why -> "unreadable: " + why)
          .orElseGet(() -> String.join("; ", steps(t)));
      case OPERATION_NOT_SET -> "";
    };
  }

  private static String fragments(List<TableProtos.DataFragment> fragments) {
    long rows = 0;
    for (TableProtos.DataFragment f : fragments) {
      rows += f.getPhysicalRows();
    }
    return Formats.count(fragments.size(), "fragment") + ", " + Formats.count(rows, "row");
  }

  private static String indexNames(List<TableProtos.IndexMetadata> added,
      List<TableProtos.IndexMetadata> removed) {
    List<String> names = new ArrayList<>();
    for (TableProtos.IndexMetadata m : added) {
      if (!names.contains(m.getName())) {
        names.add(m.getName());
      }
    }
    for (TableProtos.IndexMetadata m : removed) {
      if (!names.contains(m.getName())) {
        names.add(m.getName());
      }
    }
    return Formats.list(names, s -> s);
  }

  private static String rewrite(Transaction.Rewrite r) {
    int oldCount = r.getOldFragmentsCount();
    int newCount = r.getNewFragmentsCount();
    for (Transaction.Rewrite.RewriteGroup g : r.getGroupsList()) {
      oldCount += g.getOldFragmentsCount();
      newCount += g.getNewFragmentsCount();
    }
    return oldCount + " -> " + newCount + " fragments in "
        + Formats.count(Math.max(1, r.getGroupsCount()), "group")
        + (r.getRewrittenIndicesCount() == 0 ? "" : ", " + r.getRewrittenIndicesCount() + " indices remapped");
  }

  /** The changes of an UpdateConfig, new style and deprecated style alike. */
  static String updateConfig(Transaction.UpdateConfig u) {
    List<String> parts = new ArrayList<>();
    if (u.hasConfigUpdates()) {
      parts.add("config " + updateMap(u.getConfigUpdates()));
    }
    if (u.hasTableMetadataUpdates()) {
      parts.add("table metadata " + updateMap(u.getTableMetadataUpdates()));
    }
    if (u.hasSchemaMetadataUpdates()) {
      parts.add("schema metadata " + updateMap(u.getSchemaMetadataUpdates()));
    }
    for (Map.Entry<Integer, CommonProtos.UpdateMap> e : u.getFieldMetadataUpdatesMap().entrySet()) {
      parts.add("field " + e.getKey() + " metadata " + updateMap(e.getValue()));
    }
    if (u.getUpsertValuesCount() > 0 || u.getDeleteKeysCount() > 0) {
      List<String> entries = new ArrayList<>();
      new java.util.TreeMap<>(u.getUpsertValuesMap()).forEach((k, v) -> entries.add(k + "=" + v));
      for (String k : u.getDeleteKeysList()) {
        entries.add("-" + k);
      }
      parts.add("config {" + String.join(", ", entries) + "}");
    }
    if (u.getSchemaMetadataCount() > 0) {
      parts.add("schema metadata {" + Formats.keyValues(u.getSchemaMetadataMap()) + "}");
    }
    for (Map.Entry<Integer, Transaction.UpdateConfig.FieldMetadataUpdate> e
        : u.getFieldMetadataMap().entrySet()) {
      parts.add("field " + Integer.toUnsignedString(e.getKey()) + " metadata {"
          + Formats.keyValues(e.getValue().getMetadataMap()) + "}");
    }
    return parts.isEmpty() ? "no changes" : String.join("; ", parts);
  }

  /** {@code {a=1, -b}}: a value sets the key, a leading minus removes it. */
  static String updateMap(CommonProtos.UpdateMap m) {
    List<String> entries = new ArrayList<>();
    for (CommonProtos.UpdateMapEntry e : m.getUpdateEntriesList()) {
      entries.add(e.hasValue() ? e.getKey() + "=" + e.getValue() : "-" + e.getKey());
    }
    return (m.getReplace() ? "replace " : "") + "{" + String.join(", ", entries) + "}";
  }

  /** How many rows a RelocateRows moves, or why its bitmap cannot be read. */
  static String relocatedRows(ActionProtos.RelocateRows r) {
    return rowCount(r.getRows(), "RelocateRows.rows");
  }

  /** How many rows a portable Roaring bitmap holds, or why it cannot be read. */
  private static String rowCount(com.google.protobuf.ByteString bitmap, String where) {
    try {
      return Long.toString(PortableRoaring.read(bitmap.toByteArray(), where).getLongCardinality());
    } catch (FormatException e) {
      return "unreadable (" + e.defect() + ")";
    }
  }

  /** One line per V2 action: its arm name and the ids it touches. */
  static String action(ActionProtos.Action a) {
    String name = actionName(a);
    String detail = switch (a.getActionCase()) {
      case ADD_FRAGMENT -> {
        ActionProtos.AddFragment f = a.getAddFragment();
        yield "id=" + Formats.ref(f.getId()) + " rows=" + Formats.unsigned(f.getPhysicalRows())
            + dataChange(f.hasDataChange(), f.getDataChange());
      }
      case ADD_DATA_FILE -> {
        ActionProtos.AddDataFile f = a.getAddDataFile();
        yield "fragment=" + Formats.ref(f.getFragment()) + " path=" + f.getFile().getPath()
            + " fields=" + Formats.refs(f.getFieldIdsList()) + dataChange(f.hasDataChange(), f.getDataChange());
      }
      case ADD_FIELD -> {
        ActionProtos.AddField f = a.getAddField();
        yield "local=" + Integer.toUnsignedString(f.getLocal()) + " name=" + f.getDef().getName()
            + " type=" + f.getDef().getLogicalType()
            + (f.hasParent() ? " parent=" + Formats.ref(f.getParent()) : "");
      }
      case ADD_BASE -> "local=" + Integer.toUnsignedString(a.getAddBase().getLocal())
          + " path=" + a.getAddBase().getBase().getPath();
      case TOMBSTONE_FIELD_DATA -> "fragment=" + Formats.ref(a.getTombstoneFieldData().getFragment())
          + " fields=" + Formats.refs(a.getTombstoneFieldData().getFieldIdsList());
      case REMOVE_FRAGMENT -> "fragment=" + Formats.ref(a.getRemoveFragment().getFragment())
          + dataChange(a.getRemoveFragment().hasDataChange(), a.getRemoveFragment().getDataChange());
      case SET_DELETION_FILE -> {
        ActionProtos.SetDeletionFile s = a.getSetDeletionFile();
        yield "fragment=" + Formats.unsigned(s.getFragment()) + " file="
            + (s.hasDeletionFile() ? deletionFile(s.getFragment(), s.getDeletionFile())
                + " deleted=" + Formats.unsigned(s.getDeletionFile().getNumDeletedRows()) : "none");
      }
      case CONFIG_UPDATE -> configUpdate(a.getConfigUpdate());
      case ADD_OVERLAYS -> "fragment=" + Formats.ref(a.getAddOverlays().getFragment())
          + " overlays=" + a.getAddOverlays().getOverlaysCount();
      case RELOCATE_ROWS -> "fragment=" + Formats.unsigned(a.getRelocateRows().getFragment())
          + " rows=" + relocatedRows(a.getRelocateRows());
      case ASSERT_CELLS_UNCHANGED -> "fragment=" + Formats.ref(a.getAssertCellsUnchanged().getFragment())
          + " fields=" + Formats.refs(a.getAssertCellsUnchanged().getFieldsList())
          + " rows=" + rowCount(a.getAssertCellsUnchanged().getRows(), "AssertCellsUnchanged.rows");
      case REFRESH_ROW_VERSION_METADATA -> "fragments="
          + Formats.unsignedList(a.getRefreshRowVersionMetadata().getFragmentIdsList());
      case UPDATE_COMPACTED_SS_TABLES -> "sstables="
          + a.getUpdateCompactedSsTables().getCompactedSstablesCount();
      case DROP_FIELD -> "field=" + Formats.ref(a.getDropField().getField());
      case ALTER_FIELD -> {
        ActionProtos.AlterField f = a.getAlterField();
        yield "field=" + Formats.ref(f.getField()) + (f.hasName() ? " name=" + f.getName() : "")
            + (f.hasLogicalType() ? " type=" + f.getLogicalType() : "")
            + (f.hasNullable() ? " nullable=" + f.getNullable() : "")
            + (f.hasNewLocal() ? " new_id=Local(" + Integer.toUnsignedString(f.getNewLocal()) + ")" : "");
      }
      case ADD_INDEX_SEGMENT -> {
        ActionProtos.AddIndexSegment s = a.getAddIndexSegment();
        yield "name=" + s.getName() + " uuid=" + Formats.uuid(s.getUuid()) + " fields="
            + Formats.refs(s.getFieldsList()) + " coverage="
            + (s.hasCoveredFragments() ? Formats.refs(s.getCoveredFragments().getFragmentsList()) : "unknown");
      }
      case REMOVE_INDEX_SEGMENT -> "name=" + a.getRemoveIndexSegment().getName() + " uuid="
          + Formats.uuid(a.getRemoveIndexSegment().getUuid());
      case ADJUST_INDEX_COVERAGE -> {
        ActionProtos.AdjustIndexCoverage c = a.getAdjustIndexCoverage();
        yield "name=" + c.getName() + " uuid=" + Formats.uuid(c.getUuid()) + " add="
            + Formats.refs(c.getAddFragmentsList()) + " remove=" + Formats.unsignedList(c.getRemoveFragmentsList());
      }
      case RESET_TABLE -> "";
      case RESERVE_FRAGMENT_IDS -> "count=" + Integer.toUnsignedString(a.getReserveFragmentIds().getCount());
      case ASSERT_UNIQUE_KEYS -> {
        ActionProtos.AssertUniqueKeys k = a.getAssertUniqueKeys();
        yield "keys=" + Formats.refs(k.getKeyFieldsList()) + " filter=" + keyFilter(k.getFilter());
      }
      case RESERVE_ROW_IDS -> "count=" + Formats.unsigned(a.getReserveRowIds().getCount());
      case ACTION_NOT_SET -> "";
    };
    return detail.isEmpty() ? name : name + " " + detail;
  }

  /** The deletion file's name under {@code _deletions/} ("3-5-123.arrow"). */
  static String deletionFile(long fragmentId, TableProtos.DeletionFile d) {
    return Formats.deletionFile(fragmentId, Optional.of(FragmentCodec.fromProto(d)));
  }

  private static String dataChange(boolean present, boolean value) {
    return present && !value ? " data_change=false" : "";
  }

  private static String configUpdate(ActionProtos.ConfigUpdate c) {
    List<String> parts = new ArrayList<>();
    if (c.hasConfig()) {
      parts.add("config " + updateMap(c.getConfig()));
    }
    if (c.hasTableMetadata()) {
      parts.add("table_metadata " + updateMap(c.getTableMetadata()));
    }
    if (c.hasSchemaMetadata()) {
      parts.add("schema_metadata " + updateMap(c.getSchemaMetadata()));
    }
    for (ActionProtos.ConfigUpdate.FieldMetadata f : c.getFieldMetadataList()) {
      parts.add("field " + Formats.ref(f.getField()) + " metadata " + updateMap(f.getUpdates()));
    }
    return String.join("; ", parts);
  }

  /** The kind and size of a key-existence filter ("exact(3 keys)", "bloom(8192 bits)"). */
  static String keyFilter(CommonProtos.KeyExistenceFilter f) {
    return switch (f.getDataCase()) {
      case EXACT -> "exact(" + Formats.count(f.getExact().getKeyHashesCount(), "key") + ")";
      case BLOOM -> "bloom(" + Integer.toUnsignedString(f.getBloom().getNumBits()) + " bits)";
      case DATA_NOT_SET -> "none";
    };
  }
}
