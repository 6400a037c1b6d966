package dev.lancet.core.apply;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.google.protobuf.Any;
import com.google.protobuf.UnknownFieldSet;
import dev.lancet.core.action.Action;
import dev.lancet.core.action.AddDataFile;
import dev.lancet.core.action.AddField;
import dev.lancet.core.action.AddFragment;
import dev.lancet.core.action.CompositeOperation;
import dev.lancet.core.action.Ref;
import dev.lancet.core.action.UserStep;
import dev.lancet.format.model.DataFile;
import dev.lancet.format.model.Field;
import dev.lancet.format.model.Fragment;
import dev.lancet.format.model.IndexSegment;
import dev.lancet.format.model.Manifest;
import dev.lancet.format.model.Schema;
import dev.lancet.format.model.WriterVersion;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.UUID;
import java.util.stream.Collectors;

/**
 * Shared fixtures for the per-action apply tests of the base vocabulary (fragments, fields,
 * bases, config, reset, reservations) and the cross-cutting {@link CompositeApply} tests.
 *
 * <p>{@link #sampleManifest()} is a table with one field {@code id} (id 0) and one fragment
 * (id 0, 10 rows, no files); {@link #backedManifest()} is the same table with fragment 0 backed
 * by one data file {@code data/0.lance} holding field 0. {@link #apply} builds a one-step
 * ("step") composite operation read at the manifest's version and applies it.
 */
public final class ApplyFixtures {
  /** The version of the sample manifests. */
  public static final long VERSION = 5;

  private ApplyFixtures() {}

  public static Field field(int id, String name) {
    return Field.builder(id, name, "int32").build();
  }

  /** A definition for AddField: its id and parent are ignored at apply. */
  public static Field def(String name) {
    return Field.builder(99, name, "int32").build();
  }

  public static Field def(String name, String logicalType) {
    return Field.builder(99, name, logicalType).build();
  }

  /** A data file whose slots hold {@code fields}, column i in slot i. */
  public static DataFile file(String path, Integer... fields) {
    List<Integer> columns = new ArrayList<>();
    for (int i = 0; i < fields.length; i++) {
      columns.add(i);
    }
    return new DataFile(path, List.of(fields), columns, 2, 0, 100);
  }

  /** A data file as a writer hands it to AddDataFile: slots unassigned, one column each. */
  public static DataFile newFile(String path, int columns) {
    List<Integer> fields = new ArrayList<>();
    List<Integer> indices = new ArrayList<>();
    for (int i = 0; i < columns; i++) {
      fields.add(DataFile.UNASSIGNED);
      indices.add(i);
    }
    return new DataFile(path, fields, indices, 2, 0, 100);
  }

  /** One field {@code id} (0) and fragment 0 with 10 rows and no files. */
  public static Manifest sampleManifest() {
    return Manifest.builder()
        .schema(new Schema(List.of(Field.builder(0, "id", "int64").build()), Map.of()))
        .fragments(List.of(Fragment.of(0, 10, List.of())))
        .version(VERSION)
        .writerVersion(Optional.of(WriterVersion.LANCET))
        .build();
  }

  /** {@link #sampleManifest()} with fragment 0 backed by {@code data/0.lance} holding field 0. */
  public static Manifest backedManifest() {
    Manifest m = sampleManifest();
    return m.toBuilder()
        .fragments(List.of(Fragment.of(0, 10, List.of(file("data/0.lance", 0)))))
        .build();
  }

  /** A manifest with the given schema fields and fragments, at {@link #VERSION}. */
  public static Manifest manifest(List<Field> fields, List<Fragment> fragments) {
    return sampleManifest().toBuilder()
        .schema(new Schema(fields, Map.of()))
        .fragments(fragments)
        .build();
  }

  /** A scalar index segment named {@code name} over field 0, covering fragment 0. */
  public static IndexSegment sampleIndex(String name) {
    return index(name, List.of(0), List.of(0L));
  }

  public static IndexSegment index(String name, List<Integer> fields, List<Long> fragments) {
    return new IndexSegment(UUID.randomUUID(), fields, name, VERSION,
        IndexSegment.fragmentBitmapOf(fragments),
        Optional.of(Any.newBuilder().setTypeUrl("/lance.table.BTreeIndexDetails").build()),
        OptionalInt.of(0), OptionalLong.of(1_700_000_000_000L), OptionalInt.empty(), List.of(), List.of(),
        UnknownFieldSet.getDefaultInstance());
  }

  /** The fragment ids an index segment covers. */
  public static List<Long> covered(IndexSegment s) {
    List<Long> out = new ArrayList<>();
    for (int id : s.coveredFragments().orElseThrow()) {
      out.add(Integer.toUnsignedLong(id));
    }
    return out;
  }

  public static CompositeOperation op(Action... actions) {
    return new CompositeOperation(List.of(new UserStep("step", List.of(actions))));
  }

  /** Applies the actions as one step read at {@code m}'s version; returns the manifest. */
  public static Manifest apply(Manifest m, Action... actions) {
    return CompositeApply.apply(m, List.of(), op(actions), m.version()).manifest();
  }

  public static CompositeApply.Result applyWithIndices(Manifest m, List<IndexSegment> indices,
      Action... actions) {
    return CompositeApply.apply(m, indices, op(actions), m.version());
  }

  /** Applies the actions, expecting an {@link ApplyException}, and returns it. */
  public static ApplyException failure(Manifest m, Action... actions) {
    return failure(m, List.of(), actions);
  }

  public static ApplyException failure(Manifest m, List<IndexSegment> indices, Action... actions) {
    ApplyException e = catchThrowableOfType(ApplyException.class,
        () -> CompositeApply.apply(m, indices, op(actions), m.version()));
    assertThat(e).as("applying %s should fail", List.of(actions)).isNotNull();
    return e;
  }

  // ---- action shorthands -------------------------------------------------------------------

  public static Ref committed(long id) {
    return Ref.committed(id);
  }

  public static Ref local(int token) {
    return Ref.local(token);
  }

  public static AddFragment addFragment(int token, long rows) {
    return AddFragment.local(token, rows);
  }

  public static AddFragment addFragmentAt(long reservedId, long rows) {
    return new AddFragment(Ref.committed(reservedId), rows, Optional.empty(), Optional.empty(),
        Optional.empty(), true);
  }

  public static AddField addField(int token, String name) {
    return AddField.topLevel(token, def(name));
  }

  public static AddField addChild(int token, Ref parent, String name) {
    return new AddField(token, Optional.of(parent), def(name));
  }

  /** AddDataFile of a fresh file with one column per field ref. */
  public static AddDataFile addDataFile(Ref fragment, String path, Ref... fields) {
    return new AddDataFile(fragment, newFile(path, fields.length), List.of(fields), true);
  }

  // ---- reading results ---------------------------------------------------------------------

  public static List<Long> fragmentIds(Manifest m) {
    return m.fragments().stream().map(Fragment::id).collect(Collectors.toList());
  }

  public static List<Integer> fieldIds(Manifest m) {
    return m.schema().fields().stream().map(Field::id).collect(Collectors.toList());
  }

  public static List<String> fieldNames(Manifest m) {
    return m.schema().fields().stream().map(Field::name).collect(Collectors.toList());
  }

  public static Fragment fragment(Manifest m, long id) {
    return m.fragment(id).orElseThrow(() -> new AssertionError("no fragment " + id + " in "
        + fragmentIds(m)));
  }

  public static Field fieldNamed(Manifest m, String name) {
    return m.schema().fields().stream().filter(f -> f.name().equals(name)).findFirst()
        .orElseThrow(() -> new AssertionError("no field " + name + " in " + fieldNames(m)));
  }

  /** The field lists of a fragment's data files, in file order. */
  public static List<List<Integer>> fileFields(Manifest m, long fragment) {
    return fragment(m, fragment).files().stream().map(DataFile::fields).collect(Collectors.toList());
  }

  public static List<String> filePaths(Manifest m, long fragment) {
    return fragment(m, fragment).files().stream().map(DataFile::path).collect(Collectors.toList());
  }
}
