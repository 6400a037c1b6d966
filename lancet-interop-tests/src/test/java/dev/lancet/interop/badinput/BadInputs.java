package dev.lancet.interop.badinput;

import dev.lancet.core.action.Action;
import dev.lancet.core.action.AddBase;
import dev.lancet.core.action.AddDataFile;
import dev.lancet.core.action.AddField;
import dev.lancet.core.action.AddFragment;
import dev.lancet.core.action.AddIndexSegment;
import dev.lancet.core.action.AddOverlays;
import dev.lancet.core.action.AlterField;
import dev.lancet.core.action.CompositeOperation;
import dev.lancet.core.action.ConfigUpdate;
import dev.lancet.core.action.DropField;
import dev.lancet.core.action.Ref;
import dev.lancet.core.action.RemoveFragment;
import dev.lancet.core.action.ResetTable;
import dev.lancet.core.action.SetDeletionFile;
import dev.lancet.core.action.TombstoneFieldData;
import dev.lancet.core.action.UpdateMap;
import dev.lancet.core.action.UserStep;
import dev.lancet.core.apply.ApplyException;
import dev.lancet.core.action.InvalidActionException;
import dev.lancet.core.commit.ConflictingCommitException;
import dev.lancet.core.commit.DamagedTableException;
import dev.lancet.core.commit.IncompatibleTransactionException;
import dev.lancet.core.commit.InvalidTransactionException;
import dev.lancet.core.commit.ReadVersionUnavailableException;
import dev.lancet.core.operation.Append;
import dev.lancet.core.operation.Clone;
import dev.lancet.core.operation.CreateIndex;
import dev.lancet.core.operation.DataOverlay;
import dev.lancet.core.operation.Delete;
import dev.lancet.core.operation.LegacyOperation;
import dev.lancet.core.operation.Merge;
import dev.lancet.core.operation.Overwrite;
import dev.lancet.core.operation.Project;
import dev.lancet.core.operation.Update;
import dev.lancet.core.operation.UpdateBases;
import dev.lancet.core.store.LocalObjectStore;
import dev.lancet.format.Texts;
import dev.lancet.format.deletion.DeletionFileFormat;
import dev.lancet.format.deletion.DeletionFileNames;
import dev.lancet.format.deletion.DeletionVector;
import dev.lancet.format.layout.ManifestNaming;
import dev.lancet.format.model.BasePath;
import dev.lancet.format.model.DataFile;
import dev.lancet.format.model.DataOverlayFile;
import dev.lancet.format.model.DeletionFile;
import dev.lancet.format.model.ExternalFile;
import dev.lancet.format.model.Field;
import dev.lancet.format.model.Fragment;
import dev.lancet.format.model.IndexSegment;
import dev.lancet.format.model.Schema;
import dev.lancet.format.model.StoredSequence;
import dev.lancet.interop.badinput.BadInput.CommandLine;
import dev.lancet.interop.badinput.BadInput.Composite;
import dev.lancet.interop.badinput.BadInput.Damage;
import dev.lancet.interop.badinput.BadInput.Expect;
import dev.lancet.interop.badinput.BadInput.Legacy;
import dev.lancet.interop.badinput.BadInput.Submission;
import com.google.protobuf.UnknownFieldSet;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.UUID;

/**
 * The held-out sweep of issue 10: bad inputs by category, each with the typed error and the exit
 * code it must end in. Built from the categories and the defects its reporter listed;
 * each path defect is tried at every place a manifest names a path.
 */
final class BadInputs {
  static final int INVALID = 2;
  static final int RETRYABLE = 3;
  static final int INCOMPATIBLE = 4;

  /** Paths a manifest may not name, with the text the refusal contains. */
  static final List<String[]> BAD_RELATIVE_PATHS = List.of(
      new String[] {"../../../etc/passwd", "'..' segments"},
      new String[] {"/etc/passwd", "absolute paths"},
      new String[] {"file:///etc/passwd", "a URI"},
      new String[] {"s3://bucket/key.lance", "a URI"},
      new String[] {"a/./b.lance", "'.' segments"},
      new String[] {"a//b.lance", "empty segment"},
      new String[] {"a\\b.lance", "backslash"},
      new String[] {"C:/x.lance", "drive letter"},
      new String[] {"c:x.lance", "drive letter"},
      new String[] {"", "the path is empty"},
      new String[] {"a\u0000b.lance", "NUL character"},
      new String[] {"a\nb.lance", "control character"},
      new String[] {"x".repeat(100_000), "more than 4096"},
      new String[] {"dir/", "must not end with '/'"});

  /** Base path locations that are malformed whatever the policy. */
  static final List<String[]> BAD_BASE_PATHS = List.of(
      new String[] {"relative/dir", "a relative path"},
      new String[] {"/data/../etc", "'..' segment"},
      new String[] {"/data/./x", "'.' segment"},
      new String[] {"/data//x", "empty segment"},
      new String[] {"C:\\data", "backslash"},
      new String[] {"C:/data", "drive letter"},
      new String[] {"s3://bucket/a/../b", "'..' segment"},
      new String[] {"", "the path is empty"},
      new String[] {"/a\u0000b", "NUL character"},
      new String[] {"/" + "x".repeat(100_000), "more than 4096"});

  private BadInputs() {}

  static List<BadInput> catalog(BadInputTable t) {
    List<BadInput> out = new ArrayList<>();
    paths(t, out);
    schema(t, out);
    references(t, out);
    rows(t, out);
    failFast(t, out);
    input(out);
    damage(t, out);
    return out;
  }

  // ---- building blocks ---------------------------------------------------------------------

  static CompositeOperation op(Action... actions) {
    return new CompositeOperation(List.of(new UserStep("bad input", List.of(actions))));
  }

  private static Composite composite(Action... actions) {
    return new Composite(op(actions), 0, false);
  }

  private static Legacy legacy(LegacyOperation op) {
    return new Legacy(op, 0, false);
  }

  private static BadInput invalid(String category, String name, Submission s, String text) {
    return new BadInput(category, name, s, Damage.NONE, new Expect(ApplyException.class, INVALID, text));
  }

  /** {@code t}'s good file under another path (it need not exist: the path is refused first). */
  static DataFile at(BadInputTable t, String path) {
    DataFile g = t.goodFile;
    return new DataFile(path, g.fields(), g.columnIndices(), g.fileMajorVersion(), g.fileMinorVersion(), g.fileSizeBytes());
  }

  /** An append of {@code file} (fields 0 and 1) as a new fragment of 10 rows. */
  static Action[] append(DataFile file, long rows) {
    return new Action[] {AddFragment.local(0, rows),
        new AddDataFile(Ref.local(0), file, List.of(Ref.committed(0), Ref.committed(1)), true)};
  }

  /** A legacy fragment of 10 rows with {@code file} storing fields 0 and 1. */
  static Fragment legacyFragment(BadInputTable t, long id, String path) {
    DataFile g = t.goodFile;
    return Fragment.of(id, 10, List.of(new DataFile(path, List.of(0, 1), g.columnIndices(),
        g.fileMajorVersion(), g.fileMinorVersion(), g.fileSizeBytes())));
  }

  private static DataOverlayFile overlay(String path) {
    return new DataOverlayFile(new DataFile(path, List.of(1), List.of(0), 2, 1, 64),
        new DataOverlayFile.SharedCoverage(IndexSegment.fragmentBitmapOf(List.of(1L))), 0,
        UnknownFieldSet.getDefaultInstance());
  }

  private static IndexSegment.IndexFile indexFile(String path) {
    return new IndexSegment.IndexFile(path, 64, UnknownFieldSet.getDefaultInstance());
  }

  private static AddIndexSegment addIndex(List<Ref> fields, List<IndexSegment.IndexFile> files) {
    return new AddIndexSegment(UUID.randomUUID(), "bad_idx", fields, Optional.empty(), OptionalInt.of(0),
        Optional.of(List.of(Ref.committed(0))), files, false, Optional.empty(), OptionalLong.empty(),
        OptionalLong.empty(), List.of());
  }

  private static IndexSegment legacyIndex(List<Integer> fields, List<IndexSegment.IndexFile> files) {
    return new IndexSegment(UUID.randomUUID(), fields, "bad_idx", 1, IndexSegment.fragmentBitmapOf(List.of(0L)),
        Optional.empty(), OptionalInt.of(0), OptionalLong.empty(), OptionalInt.empty(), files,
        List.of(), UnknownFieldSet.getDefaultInstance());
  }

  private static final Schema SCHEMA = new Schema(List.of(
      Field.builder(0, "id", "int64").nullable(false).build(),
      Field.builder(1, "name", "string").build()), Map.of());

  // ---- paths -------------------------------------------------------------------------------

  private static void paths(BadInputTable t, List<BadInput> out) {
    for (String[] bad : BAD_RELATIVE_PATHS) {
      String path = bad[0];
      String why = bad[1];
      String shown = describe(path);
      out.add(invalid("paths", "data file " + shown, composite(append(at(t, path), 10)), why));
      out.add(invalid("paths", "overlay file " + shown,
          composite(new AddOverlays(Ref.committed(0), List.of(overlay(path)), true)), why));
      out.add(invalid("paths", "external row-id file " + shown, composite(
          new AddFragment(Ref.local(0), 10, Optional.of(new StoredSequence.External(new ExternalFile(path, 0, 8))),
              Optional.empty(), Optional.empty(), true),
          new AddDataFile(Ref.local(0), t.goodFile, List.of(Ref.committed(0), Ref.committed(1)), true)), why));
      out.add(invalid("paths", "index file " + shown,
          composite(addIndex(List.of(Ref.committed(0)), List.of(indexFile(path)))), why));
      out.add(invalid("paths", "legacy Append data file " + shown,
          legacy(new Append(List.of(legacyFragment(t, 0, path)))), why));
      out.add(invalid("paths", "legacy Overwrite data file " + shown,
          legacy(new Overwrite(List.of(legacyFragment(t, 0, path)), SCHEMA, Map.of(), List.of())), why));
      out.add(invalid("paths", "legacy CreateIndex index file " + shown,
          legacy(new CreateIndex(List.of(legacyIndex(List.of(0), List.of(indexFile(path)))), List.of())), why));
      out.add(invalid("paths", "legacy DataOverlay file " + shown,
          legacy(new DataOverlay(List.of(new DataOverlay.Group(0, List.of(overlay(path)))))), why));
    }
    for (String[] bad : BAD_BASE_PATHS) {
      String path = bad[0];
      String shown = describe(path);
      out.add(invalid("paths", "AddBase at " + shown, new Composite(op(
          new AddBase(0, new BasePath(0, Optional.of("extra"), false, path))), 0, true), bad[1]));
      out.add(invalid("paths", "UpdateBases at " + shown, new Legacy(new UpdateBases(List.of(
          new BasePath(0, Optional.of("extra"), false, path))), 0, true), bad[1]));
    }
    out.add(invalid("paths", "AddBase /etc without the caller's permission",
        composite(new AddBase(0, new BasePath(0, Optional.of("etc"), false, "/etc"))), "base-path policy"));
    out.add(invalid("paths", "UpdateBases s3://elsewhere without the caller's permission",
        legacy(new UpdateBases(List.of(new BasePath(0, Optional.of("x"), true, "s3://elsewhere/t")))), "base-path policy"));
  }

  private static String describe(String path) {
    return path.length() > 40 ? Texts.quote(path.substring(0, 8)) + "... (" + path.length() + " characters)"
        : Texts.quote(path);
  }

  // ---- schema ------------------------------------------------------------------------------

  private static void schema(BadInputTable t, List<BadInput> out) {
    for (String[] bad : new String[][] {
        {"", "empty name"}, {"a.b", "'.'"}, {"_rowid", "system column"}, {"_rowaddr", "system column"},
        {"_rowoffset", "system column"}, {"_row_created_at_version", "system column"},
        {"_row_last_updated_at_version", "system column"}, {"*", "system column"},
        {"id", "two fields are named 'id'"}}) {
      out.add(invalid("schema", "AddField named " + Texts.quote(bad[0]),
          composite(AddField.topLevel(0, Field.builder(0, bad[0], "int32").build())), bad[1]));
    }
    out.add(invalid("schema", "two new fields with one name", composite(
        AddField.topLevel(0, Field.builder(0, "x", "int32").build()),
        AddField.topLevel(1, Field.builder(0, "x", "string").build())), "two fields are named 'x'"));
    out.add(invalid("schema", "a child under a non-struct field", composite(
        new AddField(0, Optional.of(Ref.committed(0)), Field.builder(0, "kid", "int32").build())), "has no child fields"));
    out.add(invalid("schema", "a child under a field that does not exist", composite(
        new AddField(0, Optional.of(Ref.committed(99)), Field.builder(0, "kid", "int32").build())), "does not exist"));
    out.add(invalid("schema", "a list with no item field", composite(
        AddField.topLevel(0, Field.builder(0, "l", "list").build())), "needs exactly one child"));
    for (String type : List.of("float64", "int", "varchar", "Int64", "timestamp:xs:-", "timestamp:us",
        "fixed_size_list:float:0", "fixed_size_list:float", "fixed_size_list:list:4", "decimal:64:10:2",
        "decimal:128:300:1", "dict:string", "fixed_size_binary:0", "time32:us", "timestamp:us:+08:00", "")) {
      out.add(invalid("schema", "AddField of type " + Texts.quote(type),
          composite(AddField.topLevel(0, Field.builder(0, "v", type).build())), "logical type"));
    }
    for (String[] bad : new String[][] {{"id", "two fields are named 'id'"}, {"", "empty"}, {"n.x", "'.'"},
        {"_rowid", "system column"}}) {
      out.add(invalid("schema", "rename onto " + Texts.quote(bad[0]),
          composite(AlterField.rename(Ref.committed(1), bad[0])), bad[1]));
    }
    out.add(invalid("schema", "AlterField changing a type",
        composite(new AlterField(Ref.committed(1), Optional.empty(), Optional.of("int32"), Optional.empty())),
        "cannot change the type"));
    out.add(invalid("schema", "dropping every field",
        composite(new DropField(Ref.committed(0)), new DropField(Ref.committed(1))), "no fields"));
    out.add(invalid("schema", "AlterField of a field that does not exist",
        composite(AlterField.rename(Ref.committed(42), "x")), "does not exist"));
    Schema dupIds = new Schema(List.of(Field.builder(0, "a", "int64").build(), Field.builder(0, "b", "int64").build()), Map.of());
    Schema badType = new Schema(List.of(Field.builder(0, "a", "float64").build()), Map.of());
    Schema dotted = new Schema(List.of(Field.builder(0, "a.b", "int64").build()), Map.of());
    Schema leafParent = new Schema(List.of(Field.builder(0, "a", "int64").build(),
        Field.builder(1, "b", "int64").parentId(0).build()), Map.of());
    out.add(invalid("schema", "Overwrite with duplicate field ids", legacy(new Overwrite(List.of(), dupIds, Map.of(), List.of())), "appears twice"));
    out.add(invalid("schema", "Overwrite with no fields", legacy(new Overwrite(List.of(), Schema.EMPTY, Map.of(), List.of())), "no fields"));
    out.add(invalid("schema", "Overwrite with an unknown type", legacy(new Overwrite(List.of(), badType, Map.of(), List.of())), "logical type"));
    out.add(invalid("schema", "Overwrite with a dotted name", legacy(new Overwrite(List.of(), dotted, Map.of(), List.of())), "'.'"));
    out.add(invalid("schema", "Overwrite with a child under a leaf", legacy(new Overwrite(List.of(), leafParent, Map.of(), List.of())), "has no child fields"));
    out.add(invalid("schema", "Project with no fields", legacy(new Project(List.of(), true)), "no fields"));
    out.add(invalid("schema", "Project with duplicate field ids", legacy(new Project(dupIds.fields(), true)), "appears twice"));
    out.add(invalid("schema", "Project renaming a field to a reserved name", legacy(new Project(List.of(
        SCHEMA.fields().get(0), SCHEMA.fields().get(1).toBuilder().name("_rowaddr").build()), true)), "system column"));
  }

  // ---- references --------------------------------------------------------------------------

  private static void references(BadInputTable t, List<BadInput> out) {
    DataFile g = t.goodFile;
    out.add(invalid("references", "a data file storing a field that does not exist", composite(AddFragment.local(0, 10),
        new AddDataFile(Ref.local(0), g, List.of(Ref.committed(0), Ref.committed(9)), true)), "stores field 9, which does not exist"));
    out.add(invalid("references", "a data file storing a field the operation dropped", composite(new DropField(Ref.committed(1)),
        AddFragment.local(0, 10), new AddDataFile(Ref.local(0), g, List.of(Ref.committed(0), Ref.committed(1)), true)),
        "which does not exist any more"));
    out.add(invalid("references", "ResetTable followed by data for the dropped schema", composite(new ResetTable(),
        AddField.topLevel(0, Field.builder(0, "k", "int64").build()), AddFragment.local(0, 10),
        new AddDataFile(Ref.local(0), g, List.of(Ref.committed(0), Ref.committed(1)), true)), "which does not exist any more"));
    out.add(invalid("references", "a data file naming no field ids", composite(AddFragment.local(0, 10),
        new AddDataFile(Ref.local(0), g, List.of(), true)), "names no field ids"));
    out.add(invalid("references", "a data file for a fragment that does not exist", composite(
        new AddDataFile(Ref.committed(77), g, List.of(Ref.committed(0), Ref.committed(1)), true)), "fragment 77, which does not exist"));
    out.add(invalid("references", "a deletion of a fragment that does not exist", composite(
        new SetDeletionFile(77, Optional.of(new DeletionFile(DeletionFile.Kind.BITMAP, 1, 5, 1)), true)), "fragment 77, which does not exist"));
    out.add(invalid("references", "a deletion of more rows than the fragment has", composite(
        new SetDeletionFile(0, Optional.of(new DeletionFile(DeletionFile.Kind.BITMAP, 1, 5, 500)), true)), "deletes 500 rows"));
    out.add(invalid("references", "a deletion file that does not exist", composite(
        new SetDeletionFile(0, Optional.of(new DeletionFile(DeletionFile.Kind.BITMAP, 1, 5, 1)), true)), "does not exist"));
    out.add(new BadInput("references", "a deletion file with an offset past the fragment's rows", composite(
        new SetDeletionFile(0, Optional.of(new DeletionFile(DeletionFile.Kind.BITMAP, 1, 8_000_001, 1)), true)),
        table -> writeDeletion(table, 0, 8_000_001, DeletionVector.of(100)), new Expect(ApplyException.class, INVALID,
            "deletes row offset 100, but the fragment has 100 rows")));
    out.add(new BadInput("references", "a deletion file holding more rows than it records", composite(
        new SetDeletionFile(0, Optional.of(new DeletionFile(DeletionFile.Kind.BITMAP, 1, 8_000_002, 1)), true)),
        table -> writeDeletion(table, 0, 8_000_002, DeletionVector.of(1, 2, 3)), new Expect(ApplyException.class, INVALID,
            "records num_deleted_rows 1")));
    out.add(new BadInput("references", "a deletion file that is not one", composite(
        new SetDeletionFile(0, Optional.of(new DeletionFile(DeletionFile.Kind.BITMAP, 1, 8_000_003, 1)), true)),
        table -> Files.write(table.dir.resolve(DeletionFileNames.DIRECTORY).resolve(
            new DeletionFile(DeletionFile.Kind.BITMAP, 1, 8_000_003, 1).fileName(0)), new byte[] {1, 2, 3}),
        new Expect(ApplyException.class, INVALID, "cannot be read")));
    out.add(invalid("references", "an index over a field that does not exist",
        composite(addIndex(List.of(Ref.committed(9)), List.of())), "indexes field 9, which does not exist"));
    out.add(invalid("references", "a legacy index over a field that does not exist",
        legacy(new CreateIndex(List.of(legacyIndex(List.of(9), List.of())), List.of())), "is over field 9"));
    out.add(invalid("references", "a legacy Delete of a fragment that does not exist",
        legacy(new Delete(List.of(), List.of(77L), "true")), "deletes fragment 77, which does not exist"));
    out.add(invalid("references", "a legacy Update of a fragment that does not exist",
        legacy(new Update(List.of(77L), List.of(), List.of(), List.of(), List.of(), List.of(),
            Update.UpdateMode.REWRITE_ROWS, Optional.empty(), Map.of())), "removes fragment 77, which does not exist"));
    out.add(invalid("references", "a RemoveFragment of a fragment that does not exist",
        composite(new RemoveFragment(Ref.committed(77), true)), "fragment 77, which does not exist"));
    out.add(invalid("references", "a TombstoneFieldData of a field no file backs",
        composite(AddField.topLevel(0, Field.builder(0, "z", "int32").build()),
            new TombstoneFieldData(Ref.committed(0), List.of(Ref.local(0)), true)), "which no data file"));
    out.add(invalid("references", "a new data file that is not in the store",
        composite(append(at(t, "not-written.lance"), 10)), "does not exist in the table"));
    out.add(invalid("references", "a new data file of another size than recorded",
        composite(append(new DataFile(g.path(), g.fields(), g.columnIndices(), 2, 1, g.fileSizeBytes() + 1), 10)),
        "bytes in the store, but the commit records"));
    out.add(invalid("references", "a new index file that is not in the store",
        composite(addIndex(List.of(Ref.committed(0)), List.of(indexFile("index.idx")))), "does not exist in the table"));
    out.add(invalid("references", "a new field stored by a second file of a fragment", composite(
        new AddDataFile(Ref.committed(0), g, List.of(Ref.committed(0), Ref.committed(1)), true)), "tombstone it there first"));
  }

  static void writeDeletion(BadInputTable table, long fragment, long id, DeletionVector rows) throws Exception {
    DeletionFile df = new DeletionFile(DeletionFile.Kind.BITMAP, 1, id, rows.cardinality());
    Path file = table.dir.resolve(DeletionFileNames.DIRECTORY).resolve(df.fileName(fragment));
    Files.createDirectories(file.getParent());
    Files.write(file, DeletionFileFormat.writeBitmap(rows));
  }

  // ---- rows --------------------------------------------------------------------------------

  private static void rows(BadInputTable t, List<BadInput> out) {
    DataFile g = t.goodFile;
    out.add(invalid("rows", "physical_rows 0 for a fragment whose file has rows", composite(append(g, 0)), "physical_rows 0"));
    out.add(invalid("rows", "physical_rows 2^64-1", composite(append(g, -1)), "physical_rows 18446744073709551615"));
    out.add(invalid("rows", "physical_rows 2^32+1", composite(append(g, (1L << 32) + 1)), "more than a fragment can address"));
    out.add(invalid("rows", "an AddFragment with no AddDataFile", composite(AddFragment.local(0, 10)), "has no data files"));
    out.add(invalid("rows", "a legacy Append of a fragment with no files",
        legacy(new Append(List.of(Fragment.of(0, 10, List.of())))), "has no data files"));
    out.add(invalid("rows", "a legacy Append of a fragment with 0 rows",
        legacy(new Append(List.of(legacyFragment(t, 0, g.path()).toBuilder().physicalRows(0).build()))), "physical_rows 0"));
    out.add(invalid("rows", "a legacy Append of a data file with an empty field list", legacy(new Append(List.of(
        Fragment.of(0, 10, List.of(new DataFile(g.path(), List.of(), List.of(), 2, 1, g.fileSizeBytes())))))), "lists no fields"));
    out.add(invalid("rows", "an Overwrite of a data file with an empty field list", legacy(new Overwrite(List.of(
        Fragment.of(0, 10, List.of(new DataFile(g.path(), List.of(), List.of(), 2, 1, g.fileSizeBytes())))),
        SCHEMA, Map.of(), List.of())), "lists no fields"));
    out.add(invalid("rows", "a new fragment lacking the non-nullable field", composite(AddFragment.local(0, 10),
        new AddDataFile(Ref.local(0), new DataFile(g.path(), List.of(), List.of(1), 2, 1, g.fileSizeBytes()),
            List.of(Ref.committed(1)), true)), "no data for non-nullable field 0 ('id')"));
    out.add(invalid("rows", "a new non-nullable field without data",
        composite(AddField.topLevel(0, Field.builder(0, "must", "int32").nullable(false).build())),
        "no data for non-nullable field 2 ('must')"));
    out.add(invalid("rows", "making a field non-nullable that some fragment lacks", composite(
        AddField.topLevel(0, Field.builder(0, "later", "int32").nullable(true).build()),
        new AlterField(Ref.local(0), Optional.empty(), Optional.empty(), Optional.of(false))), "non-nullable field 2"));
  }

  // ---- fail fast (issue part 4) ------------------------------------------------------------

  private static void failFast(BadInputTable t, List<BadInput> out) {
    DataFile g = t.goodFile;
    out.add(invalid("fail fast", "a legacy Update keeping an existing fragment id", legacy(new Update(List.of(), List.of(),
        List.of(legacyFragment(t, 1, g.path())), List.of(), List.of(), List.of(), Update.UpdateMode.REWRITE_ROWS,
        Optional.empty(), Map.of())), "has id 1, which fragment 1"));
    out.add(invalid("fail fast", "a legacy Append keeping an existing fragment id",
        legacy(new Append(List.of(legacyFragment(t, 2, g.path())))), "has id 2, which fragment 2"));
    out.add(invalid("fail fast", "a Merge with no fragments", legacy(new Merge(List.of(), SCHEMA, true)), "leaves out 4 of the 4"));
    out.add(invalid("fail fast", "a shallow Clone into an existing table", legacy(new Clone(true, Optional.of("src"), 1,
        "/somewhere/else", Optional.empty())), "this table already exists"));
    for (long v : new long[] {-1, Long.MIN_VALUE}) {
      out.add(new BadInput("fail fast", "read version " + Long.toUnsignedString(v), new Composite(op(
          ConfigUpdate.ofConfig(UpdateMap.set("k", "v"))), v, false), Damage.NONE,
          new Expect(InvalidTransactionException.class, INVALID, Long.toUnsignedString(v))));
    }
    out.add(new BadInput("fail fast", "read version past the latest", new Composite(op(
        ConfigUpdate.ofConfig(UpdateMap.set("k", "v"))), 999, false), Damage.NONE,
        new Expect(InvalidTransactionException.class, INVALID, "newer than the latest version")));
  }

  // ---- input (the command line only) -------------------------------------------------------

  private static void input(List<BadInput> out) {
    String setConfig = "{\"actions\": [{\"description\": \"c\", \"actions\": [{\"configUpdate\": "
        + "{\"config\": {\"updateEntries\": [{\"key\": \"k\", \"value\": \"v\"}]}}}]}]}";
    out.add(cli("a directory as --file", dir -> mkdirs(dir.resolve("a-dir")), List.of(), "is a directory"));
    out.add(cli("a FIFO as --file", BadInputs::fifo, List.of(), "is not a regular file"));
    out.add(cli("a missing --file", dir -> dir.resolve("missing.json"), List.of(), "does not exist"));
    out.add(cli("invalid UTF-8", dir -> bytes(dir, "latin1.json",
        "{\"actions\": [{\"description\": \"caf\u00e9\"}]}".getBytes(StandardCharsets.ISO_8859_1)), List.of(), "not valid UTF-8"));
    out.add(cli("a file over the size limit", dir -> text(dir, "big.json", setConfig + " ".repeat(5_000)),
        List.of("--max-file-bytes", "4096"), "more than the 4096 bytes read"));
    out.add(cli("a duplicate key at the top", dir -> text(dir, "dup.json",
        "{\"readVersion\": \"1\", \"readVersion\": \"2\", \"compositeOperation\": " + setConfig + "}"), List.of(), "appears twice"));
    out.add(cli("a duplicate key inside an action", dir -> text(dir, "dup2.json",
        setConfig.replace("\"key\": \"k\"", "\"key\": \"k\", \"key\": \"j\"")), List.of(), "appears twice"));
    out.add(cli("deep nesting", dir -> text(dir, "deep.json", "[".repeat(100_000) + "]".repeat(100_000)),
        List.of(), "nested more than 64 levels"));
    out.add(cli("deep nesting of objects", dir -> text(dir, "deep2.json", "{\"a\":".repeat(5_000) + "1" + "}".repeat(5_000)),
        List.of(), "nested more than 64 levels"));
    out.add(cli("not JSON", dir -> text(dir, "not.json", "this is not json"), List.of(), "not valid JSON"));
    out.add(cli("an empty file", dir -> text(dir, "empty.json", ""), List.of(), "Transaction"));
    out.add(cli("JSON of another message", dir -> text(dir, "other.json", "{\"nope\": 1}"), List.of(), "neither a Transaction"));
    out.add(cli("a Transaction with no operation", dir -> text(dir, "noop.json", "{\"uuid\": \"" + UUID.randomUUID() + "\"}"),
        List.of(), "names no operation"));
    out.add(cli("--read-version -1", dir -> text(dir, "op.json", setConfig), List.of("--read-version", "-1"),
        "18446744073709551615"));
    out.add(cli("--read-version 0", dir -> text(dir, "op.json", setConfig), List.of("--read-version", "0"),
        "--read-version must be a version number"));
    out.add(cli("--read-version 2^64-1", dir -> text(dir, "op.json", setConfig), List.of("--read-version",
        "18446744073709551615"), "--read-version"));
    out.add(cli("a read version of 2^64-1 in the Transaction", dir -> text(dir, "txn.json",
        "{\"readVersion\": \"18446744073709551615\", \"compositeOperation\": " + setConfig + "}"), List.of(),
        "18446744073709551615"));
    out.add(cli("a uuid that cannot name a file", dir -> text(dir, "uuid.json",
        "{\"uuid\": \"../../escape\", \"compositeOperation\": " + setConfig + "}"), List.of(), "cannot name its .txn file"));
    out.add(cli("an unknown field in the JSON", dir -> text(dir, "unknown.json",
        "{\"compositeOperation\": " + setConfig + ", \"noSuchField\": 1}"), List.of(), "noSuchField"));
  }

  private static BadInput cli(String name, java.util.function.Function<Path, Path> file, List<String> args, String text) {
    return new BadInput("input", name, new CommandLine(file, args), Damage.NONE, new Expect(null, INVALID, text));
  }

  private static Path text(Path dir, String name, String content) {
    return bytes(dir, name, content.getBytes(StandardCharsets.UTF_8));
  }

  private static Path bytes(Path dir, String name, byte[] content) {
    try {
      return Files.write(dir.resolve(name), content);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static Path mkdirs(Path dir) {
    try {
      return Files.createDirectories(dir);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static Path fifo(Path dir) {
    Path fifo = dir.resolve("op-" + UUID.randomUUID() + ".fifo");
    try {
      if (new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor() != 0) {
        throw new IllegalStateException("mkfifo failed");
      }
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
    return fifo;
  }

  // ---- damaged tables ----------------------------------------------------------------------

  private static void damage(BadInputTable t, List<BadInput> out) {
    Composite config = composite(ConfigUpdate.ofConfig(UpdateMap.set("k", "v")));
    out.add(new BadInput("damage", "a garbage .txn under the latest version", config,
        BadInputs::garbageLatestTransaction,
        new Expect(DamagedTableException.class, INVALID, "records a transaction that cannot be read")));
    out.add(new BadInput("damage", "the read version was cleaned up",
        new Composite(op(ConfigUpdate.ofConfig(UpdateMap.set("late", "v"))), BadInput.BEFORE_DAMAGE, false),
        BadInputs::cleanUpReadVersion, new Expect(ReadVersionUnavailableException.class, RETRYABLE, "no longer exists")));
    out.add(new BadInput("damage", "a _transactions/ that is a file", config,
        table -> replaceWithFile(table.dir.resolve("_transactions")),
        new Expect(java.io.UncheckedIOException.class, INVALID, "no retry")));
    out.add(new BadInput("damage", "a _transactions/ linked out of the table", config,
        table -> linkOut(table.dir.resolve("_transactions")),
        new Expect(IllegalArgumentException.class, INVALID, "outside the table root")));
    out.add(new BadInput("damage", "a winner's missing deletion file", new Legacy(oursAfterWinner(t), BadInput.BEFORE_DAMAGE, false),
        BadInputs::winnerWithMissingDeletionFile,
        new Expect(IncompatibleTransactionException.class, INCOMPATIBLE, "does not exist")));
  }

  /** Commits a config change (a composite: its transaction only in _transactions/), then garbles that file. */
  private static void garbageLatestTransaction(BadInputTable table) throws Exception {
    try (dev.lancet.core.Table t = dev.lancet.core.Table.open(table.dir.toString())) {
      t.newTransaction().step("before the damage", s -> s.setConfig("damaged", "soon")).commit();
      String txn = t.latest().manifest().transactionFile();
      Files.write(table.dir.resolve("_transactions").resolve(txn), new byte[] {0x0a, 0x7f, 'g', 'a', 'r', 'b'});
    }
  }

  /** Two more versions, then the middle one's manifest is removed (as a cleanup would). */
  private static void cleanUpReadVersion(BadInputTable table) throws Exception {
    try (dev.lancet.core.Table t = dev.lancet.core.Table.open(table.dir.toString())) {
      long v = t.latest().version();
      t.newTransaction().step("a", s -> s.setConfig("a", "1")).commit();
      t.newTransaction().step("b", s -> s.setConfig("b", "1")).commit();
      new LocalObjectStore(table.dir).delete(ManifestNaming.V2.path(v + 1));
    }
  }

  /**
   * A winner deleted rows of fragment 0 (a legacy Delete with a new deletion file), and that file
   * is gone; the submission is planned before the winner and deletes other rows of fragment 0.
   */
  private static void winnerWithMissingDeletionFile(BadInputTable table) throws Exception {
    writeDeletion(table, 0, 9_000_001, DeletionVector.of(1, 2, 3));
    try (dev.lancet.core.Table t = dev.lancet.core.Table.open(table.dir.toString())) {
      Fragment f0 = t.latest().manifest().fragment(0).orElseThrow();
      DeletionVector existing = new dev.lancet.core.conflict.deletions.StoreDeletionVectors(t.store())
          .read(0, dev.lancet.format.codec.FragmentCodec.toProto(f0.deletionFile().orElseThrow()));
      DeletionVector theirs = existing.union(DeletionVector.of(1, 2, 3));
      writeDeletion(table, 0, 9_000_002, theirs);
      t.newLegacyTransaction(new Delete(List.of(f0.toBuilder().deletionFile(Optional.of(
          new DeletionFile(DeletionFile.Kind.BITMAP, 1, 9_000_002, theirs.cardinality()))).build()), List.of(), "theirs"))
          .commit();
      DeletionVector ours = existing.union(DeletionVector.of(50, 51));
      writeDeletion(table, 0, 9_000_003, ours);
      Files.delete(table.dir.resolve(DeletionFileNames.DIRECTORY).resolve(
          new DeletionFile(DeletionFile.Kind.BITMAP, 1, 9_000_002, 1).fileName(0)));
    }
  }

  /** The Delete the missing-deletion-file case submits: rows 50 and 51 of fragment 0, planned on the version before the winner. */
  static Delete oursAfterWinner(BadInputTable table) {
    try (dev.lancet.core.Table t = dev.lancet.core.Table.open(table.dir.toString())) {
      Fragment f0 = t.latest().manifest().fragment(0).orElseThrow();
      return new Delete(List.of(f0.toBuilder().deletionFile(Optional.of(new DeletionFile(DeletionFile.Kind.BITMAP, 1,
          9_000_003, f0.numDeletedRows() + 2))).build()), List.of(), "ours");
    }
  }

  private static void replaceWithFile(Path dir) throws Exception {
    if (Files.isDirectory(dir)) {
      try (var files = Files.list(dir)) {
        for (Path p : (Iterable<Path>) files::iterator) {
          Files.delete(p);
        }
      }
      Files.delete(dir);
    }
    Files.write(dir, new byte[] {1});
  }

  private static void linkOut(Path dir) throws Exception {
    Path outside = Files.createTempDirectory("bad-input-outside");
    if (Files.isDirectory(dir)) {
      try (var files = Files.list(dir)) {
        for (Path p : (Iterable<Path>) files::iterator) {
          Files.move(p, outside.resolve(p.getFileName()));
        }
      }
      Files.delete(dir);
    }
    Files.createSymbolicLink(dir, outside);
  }
}
