package dev.lancet.cli;

import static dev.lancet.cli.TextTable.Column.left;
import static dev.lancet.cli.TextTable.Column.right;

import dev.lancet.format.model.Schema;
import dev.lancet.format.pb.ActionProtos;
import dev.lancet.format.pb.CommonProtos;
import dev.lancet.format.pb.FileProtos;
import dev.lancet.format.pb.TableProtos;
import dev.lancet.format.pb.TransactionProtos.Transaction;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Locale;
import java.util.Map;

/** The readable rendering of one transaction that {@code lancet show-txn} prints. */
final class TransactionReport {
  private final long version;
  private final Transaction txn;
  private final Schema schema;

  /** @param schema the schema of the version the transaction produced, to name field ids */
  TransactionReport(long version, Transaction txn, Schema schema) {
    this.version = version;
    this.txn = txn;
    this.schema = schema;
  }

  void print(PrintWriter out) {
    int width = "read version".length();
    line(out, width, "version", Formats.unsigned(version));
    line(out, width, "read version", Formats.unsigned(txn.getReadVersion()));
    line(out, width, "uuid", Formats.orNone(txn.getUuid()));
    line(out, width, "tag", Formats.orNone(txn.getTag()));
    line(out, width, "properties", Formats.keyValues(txn.getTransactionPropertiesMap()));
    line(out, width, "operation", Transactions.operationName(txn));
    out.println();
    operation(out);
  }

  private static void line(PrintWriter out, int width, String key, String value) {
    out.println(key + ":" + " ".repeat(width - key.length() + 2) + TextTable.clean(value));
  }

  private void operation(PrintWriter out) {
    switch (txn.getOperationCase()) {
      case APPEND -> fragments(out, "NEW FRAGMENTS", txn.getAppend().getFragmentsList());
      case DELETE -> {
        Transaction.Delete d = txn.getDelete();
        out.println("predicate: " + TextTable.clean(Formats.orNone(d.getPredicate())));
        out.println("removed fragments: " + Formats.unsignedList(d.getDeletedFragmentIdsList()));
        out.println();
        fragments(out, "UPDATED FRAGMENTS", d.getUpdatedFragmentsList());
      }
      case OVERWRITE -> {
        Transaction.Overwrite o = txn.getOverwrite();
        out.println("config upserts: " + Formats.keyValues(o.getConfigUpsertValuesMap()));
        out.println("initial bases: " + Formats.list(o.getInitialBasesList(), TableProtos.BasePath::getPath));
        out.println();
        schema(out, o.getSchemaList());
        fragments(out, "FRAGMENTS", o.getFragmentsList());
      }
      case CREATE_INDEX -> {
        indexSegments(out, "NEW INDEX SEGMENTS", txn.getCreateIndex().getNewIndicesList());
        indexSegments(out, "REMOVED INDEX SEGMENTS", txn.getCreateIndex().getRemovedIndicesList());
      }
      case REWRITE -> rewrite(out, txn.getRewrite());
      case MERGE -> {
        out.println("preserves nullability: " + Formats.yesNo(txn.getMerge().getPreservesNullability()));
        out.println();
        schema(out, txn.getMerge().getSchemaList());
        fragments(out, "FRAGMENTS", txn.getMerge().getFragmentsList());
      }
      case PROJECT -> {
        out.println("preserves nullability: " + Formats.yesNo(txn.getProject().getPreservesNullability()));
        out.println();
        schema(out, txn.getProject().getSchemaList());
      }
      case RESTORE -> out.println("restores version " + Formats.unsigned(txn.getRestore().getVersion()));
      case RESERVE_FRAGMENTS -> out.println("reserves "
          + Integer.toUnsignedString(txn.getReserveFragments().getNumFragments()) + " fragment ids");
      case UPDATE -> update(out, txn.getUpdate());
      case UPDATE_CONFIG -> updateConfig(out, txn.getUpdateConfig());
      case DATA_REPLACEMENT -> {
        TextTable t = TextTable.of(right("FRAGMENT"), left("NEW FILE").maxWidth(80), left("FIELDS"));
        for (Transaction.DataReplacementGroup g : txn.getDataReplacement().getReplacementsList()) {
          t.row(Formats.unsigned(g.getFragmentId()), g.getNewFile().getPath(),
              Formats.list(g.getNewFile().getFieldsList(), String::valueOf));
        }
        table(out, "REPLACEMENTS", t);
      }
      case UPDATE_MEM_WAL_STATE -> {
        Transaction.UpdateMemWalState u = txn.getUpdateMemWalState();
        out.println("compacted sstables: " + Formats.list(u.getCompactedSstablesList(),
            s -> Formats.uuid(s.getShardId()) + "@" + Formats.unsigned(s.getGeneration())));
        if (!u.getUnknownFields().asMap().isEmpty()) {
          out.println("unknown fields: " + u.getUnknownFields().asMap().keySet());
        }
      }
      case CLONE -> {
        Transaction.Clone c = txn.getClone();
        out.println("shallow: " + Formats.yesNo(c.getIsShallow()));
        out.println("source: " + c.getRefPath() + " version " + Formats.unsigned(c.getRefVersion())
            + (c.hasRefName() ? " (ref " + c.getRefName() + ")" : ""));
        if (c.hasBranchName()) {
          out.println("branch: " + c.getBranchName());
        }
      }
      case UPDATE_BASES -> {
        TextTable t = TextTable.of(right("ID"), left("NAME"), left("DATASET ROOT"), left("PATH").maxWidth(100));
        for (TableProtos.BasePath b : txn.getUpdateBases().getNewBasesList()) {
          t.row(b.getId() == 0 ? "new" : Integer.toUnsignedString(b.getId()),
              b.hasName() ? b.getName() : Formats.NONE, Formats.yesNo(b.getIsDatasetRoot()), b.getPath());
        }
        table(out, "NEW BASES", t);
      }
      case DATA_OVERLAY -> {
        TextTable t = TextTable.of(right("FRAGMENT"), right("OVERLAYS"), left("FILES").maxWidth(100));
        for (Transaction.DataOverlayGroup g : txn.getDataOverlay().getGroupsList()) {
          t.row(Formats.unsigned(g.getFragmentId()), g.getOverlaysCount(),
              Formats.list(g.getOverlaysList(), o -> o.getDataFile().getPath()));
        }
        table(out, "OVERLAY GROUPS", t);
      }
      case COMPOSITE_OPERATION -> composite(out, txn.getCompositeOperation());
      case OPERATION_NOT_SET -> out.println("(the transaction names no operation this Lancet knows)");
    }
  }

  private static void table(PrintWriter out, String title, TextTable t) {
    out.println(title + " (" + t.size() + ")");
    if (t.isEmpty()) {
      out.println("(none)");
    } else {
      t.print(out);
    }
    out.println();
  }

  private static void fragments(PrintWriter out, String title, List<TableProtos.DataFragment> fragments) {
    TextTable t = TextTable.of(right("ID"), right("PHYSICAL ROWS"), right("DELETED"), right("FILES"),
        left("DELETION FILE"), left("PATHS").maxWidth(80));
    for (TableProtos.DataFragment f : fragments) {
      t.row(Formats.unsigned(f.getId()), Formats.unsigned(f.getPhysicalRows()),
          f.hasDeletionFile() ? Formats.unsigned(f.getDeletionFile().getNumDeletedRows()) : "0",
          f.getFilesCount(),
          f.hasDeletionFile() ? Transactions.deletionFile(f.getId(), f.getDeletionFile()) : Formats.NONE,
          Formats.list(f.getFilesList(), TableProtos.DataFile::getPath));
    }
    table(out, title, t);
  }

  private static void schema(PrintWriter out, List<FileProtos.Field> fields) {
    TextTable t = TextTable.of(right("ID"), right("PARENT"), left("NAME"), left("TYPE"), left("NULLABLE"));
    for (FileProtos.Field f : fields) {
      t.row(f.getId(), f.getParentId() < 0 ? Formats.NONE : Integer.toString(f.getParentId()),
          f.getName(), f.getLogicalType(), Formats.yesNo(f.getNullable()));
    }
    table(out, "SCHEMA", t);
  }

  private void indexSegments(PrintWriter out, String title, List<TableProtos.IndexMetadata> segments) {
    TextTable t = TextTable.of(left("NAME"), left("UUID"), left("FIELDS"), right("DATASET VERSION"),
        left("TYPE"));
    for (TableProtos.IndexMetadata m : segments) {
      t.row(m.getName(), Formats.uuid(m.getUuid()), Formats.fieldNames(schema, m.getFieldsList()),
          Formats.unsigned(m.getDatasetVersion()),
          m.hasIndexDetails() ? m.getIndexDetails().getTypeUrl() : Formats.NONE);
    }
    table(out, title, t);
  }

  private static void rewrite(PrintWriter out, Transaction.Rewrite r) {
    List<Transaction.Rewrite.RewriteGroup> groups = new ArrayList<>(r.getGroupsList());
    if (groups.isEmpty()) {
      groups.add(Transaction.Rewrite.RewriteGroup.newBuilder()
          .addAllOldFragments(r.getOldFragmentsList())
          .addAllNewFragments(r.getNewFragmentsList())
          .build());
    }
    TextTable t = TextTable.of(right("GROUP"), left("OLD FRAGMENTS"), right("NEW FRAGMENTS"), right("NEW ROWS"));
    int i = 1;
    for (Transaction.Rewrite.RewriteGroup g : groups) {
      long rows = 0;
      for (TableProtos.DataFragment f : g.getNewFragmentsList()) {
        rows += f.getPhysicalRows();
      }
      t.row(i++, Formats.list(g.getOldFragmentsList(), f -> Formats.unsigned(f.getId())),
          g.getNewFragmentsCount(), rows);
    }
    table(out, "REWRITE GROUPS", t);
    if (r.getRewrittenIndicesCount() > 0) {
      TextTable idx = TextTable.of(left("OLD UUID"), left("NEW UUID"));
      for (Transaction.Rewrite.RewrittenIndex ri : r.getRewrittenIndicesList()) {
        idx.row(Formats.uuid(ri.getOldId()), Formats.uuid(ri.getNewId()));
      }
      table(out, "REWRITTEN INDICES", idx);
    }
  }

  private static void update(PrintWriter out, Transaction.Update u) {
    out.println("mode: " + u.getUpdateMode().name().toLowerCase(Locale.ROOT));
    out.println("removed fragments: " + Formats.unsignedList(u.getRemovedFragmentIdsList()));
    out.println("fields modified: " + Formats.list(u.getFieldsModifiedList(), Integer::toUnsignedString));
    if (u.hasInsertedRows()) {
      out.println("inserted keys: fields " + Formats.list(u.getInsertedRows().getFieldIdsList(), String::valueOf)
          + ", " + Transactions.keyFilter(u.getInsertedRows()));
    }
    out.println();
    fragments(out, "UPDATED FRAGMENTS", u.getUpdatedFragmentsList());
    fragments(out, "NEW FRAGMENTS", u.getNewFragmentsList());
  }

  private static void updateConfig(PrintWriter out, Transaction.UpdateConfig u) {
    TextTable t = TextTable.of(left("MAP"), left("CHANGE"), left("KEY"), left("VALUE").maxWidth(80));
    addUpdates(t, "config", u.hasConfigUpdates() ? u.getConfigUpdates() : null);
    addUpdates(t, "table metadata", u.hasTableMetadataUpdates() ? u.getTableMetadataUpdates() : null);
    addUpdates(t, "schema metadata", u.hasSchemaMetadataUpdates() ? u.getSchemaMetadataUpdates() : null);
    for (Map.Entry<Integer, CommonProtos.UpdateMap> e : u.getFieldMetadataUpdatesMap().entrySet()) {
      addUpdates(t, "field " + e.getKey() + " metadata", e.getValue());
    }
    new java.util.TreeMap<>(u.getUpsertValuesMap()).forEach((k, v) -> t.row("config", "set", k, v));
    for (String k : u.getDeleteKeysList()) {
      t.row("config", "remove", k, Formats.NONE);
    }
    new java.util.TreeMap<>(u.getSchemaMetadataMap()).forEach((k, v) -> t.row("schema metadata", "set", k, v));
    for (Map.Entry<Integer, Transaction.UpdateConfig.FieldMetadataUpdate> e : u.getFieldMetadataMap().entrySet()) {
      String map = "field " + Integer.toUnsignedString(e.getKey()) + " metadata";
      new java.util.TreeMap<>(e.getValue().getMetadataMap()).forEach((k, v) -> t.row(map, "set", k, v));
    }
    table(out, "UPDATES", t);
  }

  private static void addUpdates(TextTable t, String map, CommonProtos.UpdateMap updates) {
    if (updates == null) {
      return;
    }
    if (updates.getReplace()) {
      t.row(map, "replace all", Formats.NONE, Formats.NONE);
    }
    for (CommonProtos.UpdateMapEntry e : updates.getUpdateEntriesList()) {
      t.row(map, e.hasValue() ? "set" : "remove", e.getKey(), e.hasValue() ? e.getValue() : Formats.NONE);
    }
  }

  private static void composite(PrintWriter out, ActionProtos.CompositeOperation op) {
    Optional<String> unreadable = Transactions.unreadable(op);
    if (unreadable.isPresent()) {
      out.println("unreadable composite operation: " + TextTable.clean(unreadable.get()));
      return;
    }
    int actions = 0;
    for (ActionProtos.UserAction step : op.getActionsList()) {
      actions += step.getActionsCount();
    }
    out.println(Formats.count(op.getActionsCount(), "step") + ", " + Formats.count(actions, "action"));
    int s = 1;
    for (ActionProtos.UserAction step : op.getActionsList()) {
      out.println();
      out.println("step " + s++ + ": " + TextTable.clean(
          step.getDescription().isEmpty() ? "(no description)" : step.getDescription()));
      int a = 1;
      for (ActionProtos.Action action : step.getActionsList()) {
        out.println("  " + a++ + ". " + TextTable.clean(Transactions.action(action)));
      }
    }
  }
}
