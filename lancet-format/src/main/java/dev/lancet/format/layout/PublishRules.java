package dev.lancet.format.layout;

import dev.lancet.format.FormatException;
import dev.lancet.format.Texts;
import dev.lancet.format.layout.InvalidManifestException.Subject;
import dev.lancet.format.model.BasePath;
import dev.lancet.format.model.DataFile;
import dev.lancet.format.model.DataOverlayFile;
import dev.lancet.format.model.DeletionFile;
import dev.lancet.format.model.Field;
import dev.lancet.format.model.Fragment;
import dev.lancet.format.model.IndexSegment;
import dev.lancet.format.model.LogicalTypes;
import dev.lancet.format.model.Manifest;
import java.util.BitSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import org.roaringbitmap.RoaringBitmap;

/**
 * The rules a manifest must keep before it is published, beyond the read rules: those whose
 * violation makes lance-core 7.0.0 fail to open or scan the table (each was seen to panic or
 * fail in a probe against lance-core, or is a rule lance-core's own writer enforces), and
 * references that must resolve. Rules about content are checked on what changed against the
 * version the commit applies to (fragments not identical to the previous ones, fields new or
 * renamed or retyped, new bases, new index segments), so a commit costs time in proportion to
 * what it changes plus one pass over the fragment list, and a table written by another writer
 * is never refused for what it already was.
 *
 * <ul>
 *   <li>Schema: at least one field; ids non-negative and unique; a parent precedes its children
 *       and has a nested type; a list or map has exactly one child; sibling names unique; a new
 *       or changed field has a non-empty name (at the top level: no '.', not one of Lance's
 *       system columns) and a type in Lance's grammar ({@link LogicalTypes}).
 *   <li>Fragments: id within 32 bits; at least one data file; 1 to 2^32 physical rows; every
 *       data file lists fields and backs at least one field of the schema; a new file stores
 *       only fields the schema has, one column index per field, and no field another file of
 *       the fragment stores; every non-nullable field is backed; a deletion file of a known kind
 *       deletes no more rows than the fragment has; new overlays back fields of the schema and
 *       cover only offsets the fragment has; stable row ids present when the table uses them.
 *   <li>Bases: a new base path is absolute (a path or a URI) with no '.', '..' or empty segment,
 *       backslash, control character or drive letter, at most 4096 characters, allowed by the
 *       {@link BasePathPolicy}; a set name is non-empty; names (when set) and paths unique.
 *   <li>Indices: an index over fields is over fields of the schema; a new segment has a name
 *       and reflects no version after the new one.
 *   <li>The new version is the previous one plus one.
 * </ul>
 */
final class PublishRules {
  /** Lance's system columns (lance-core {@code rust/lance-core/src/lib.rs}, {@code is_system_column}), and its wildcard. */
  static final Set<String> RESERVED_NAMES = Set.of("_rowid", "_rowaddr", "_rowoffset",
      "_row_last_updated_at_version", "_row_created_at_version", "*");
  /** A fragment's row offsets are 32-bit (a row address is fragment id << 32 | offset). */
  static final long MAX_ROWS = 1L << 32;
  private static final long MAX_FRAGMENT_ID = 0xFFFF_FFFFL;

  private final Manifest previous;
  private final List<IndexSegment> previousIndices;
  private final Manifest next;
  private final List<IndexSegment> nextIndices;
  private final BasePathPolicy policy;
  private final java.util.function.Consumer<Fragment> readRules;
  private Map<Integer, Field> fieldsById;
  private BitSet required;
  private BitSet newlyRequired;

  /** {@code readRules} applies the read rules to a changed fragment, before these rules. */
  PublishRules(Manifest previous, List<IndexSegment> previousIndices, Manifest next,
      List<IndexSegment> nextIndices, BasePathPolicy policy, java.util.function.Consumer<Fragment> readRules) {
    this.previous = Objects.requireNonNull(previous, "previous");
    this.previousIndices = Objects.requireNonNull(previousIndices, "previousIndices");
    this.next = Objects.requireNonNull(next, "next");
    this.nextIndices = Objects.requireNonNull(nextIndices, "nextIndices");
    this.policy = Objects.requireNonNull(policy, "policy");
    this.readRules = Objects.requireNonNull(readRules, "readRules");
  }

  void check() {
    if (next.version() != previous.version() + 1) {
      throw new InvalidManifestException(Subject.table(), "the new manifest is version "
          + Long.toUnsignedString(next.version()) + ", but a commit on top of version "
          + Long.toUnsignedString(previous.version()) + " publishes version "
          + Long.toUnsignedString(previous.version() + 1));
    }
    schema();
    fragments();
    bases();
    indices();
  }

  // ---- schema -------------------------------------------------------------------------------

  private void schema() {
    List<Field> fields = next.schema().fields();
    if (fields.isEmpty()) {
      throw new InvalidManifestException(Subject.schema(), "the schema has no fields: a table "
          + "needs at least one field (dropping every field, or an Overwrite or Project with an "
          + "empty schema, would leave a table with no columns)");
    }
    fieldsById = new HashMap<>(fields.size() * 2);
    Map<Integer, Integer> children = new HashMap<>();
    Set<String> siblingNames = new HashSet<>(fields.size() * 2);
    for (Field f : fields) {
      if (f.id() < 0) {
        throw new InvalidManifestException(Subject.field(f.id()), "field " + Texts.quote(f.name())
            + " has the negative id " + f.id() + "; field ids are 0 or more");
      }
      Field clash = fieldsById.putIfAbsent(f.id(), f);
      if (clash != null) {
        throw new InvalidManifestException(Subject.field(f.id()), "field id " + f.id()
            + " appears twice in the schema (fields " + Texts.quote(clash.name()) + " and "
            + Texts.quote(f.name()) + "); every field needs its own id");
      }
      if (!f.isTopLevel()) {
        Field parent = f.parentId() == f.id() ? null : fieldsById.get(f.parentId());
        if (parent == null) {
          throw new InvalidManifestException(Subject.field(f.id()), describe(f) + " names parent "
              + f.parentId() + ", which is not an earlier field of the schema (a parent comes "
              + "before its children)");
        }
        if (LogicalTypes.shape(parent.logicalType()) == LogicalTypes.Shape.LEAF) {
          throw new InvalidManifestException(Subject.field(f.id()), describe(f) + " is a child of "
              + describe(parent) + ", whose type " + Texts.quote(parent.logicalType())
              + " has no child fields; only struct, list, large_list, fixed_size_list:struct "
              + "and map fields have children");
        }
        children.merge(f.parentId(), 1, Integer::sum);
      }
      if (!siblingNames.add(f.parentId() + "/" + f.name())) {
        throw new InvalidManifestException(Subject.field(f.id()), "two fields are named "
            + Texts.quote(f.name()) + (f.isTopLevel() ? " at the top level" : " under field "
            + f.parentId()) + "; names are unique among siblings (the second is field " + f.id()
            + ")");
      }
    }
    Map<Integer, Field> before = previous.schema().fields().isEmpty() ? Map.of() : previous.schema().byId();
    for (Field f : fields) {
      LogicalTypes.Shape shape = LogicalTypes.shape(f.logicalType());
      int kids = children.getOrDefault(f.id(), 0);
      if ((shape == LogicalTypes.Shape.LIST || shape == LogicalTypes.Shape.MAP) && kids != 1) {
        throw new InvalidManifestException(Subject.field(f.id()), describe(f) + " of type "
            + Texts.quote(f.logicalType()) + " needs exactly one child field ("
            + (shape == LogicalTypes.Shape.MAP ? "its entries struct" : "its item") + "), not "
            + kids);
      }
      Field was = before.get(f.id());
      if (was == null || !was.name().equals(f.name())) {
        nameRules(f);
      }
      if (was == null || !was.logicalType().equals(f.logicalType())) {
        String problem = LogicalTypes.problem(f.logicalType());
        if (problem != null) {
          throw new InvalidManifestException(Subject.field(f.id()), describe(f) + " has logical "
              + "type " + Texts.quote(f.logicalType()) + ", which Lance cannot read: " + problem);
        }
      }
    }
    required = requiredFields(next);
    BitSet wasRequired = requiredFields(previous);
    newlyRequired = (BitSet) required.clone();
    newlyRequired.andNot(wasRequired);
  }

  private static void nameRules(Field f) {
    String problem = null;
    if (f.name().isEmpty()) {
      problem = "has an empty name";
    } else if (f.isTopLevel() && f.name().indexOf('.') >= 0) {
      // As Lance's Schema::validate: a top-level name is a column path, a member's is not.
      problem = "has a '.' in its name, which Lance reads as a path into a struct (lance-core cannot "
          + "scan such a column)";
    } else if (f.isTopLevel() && RESERVED_NAMES.contains(f.name())) {
      problem = "is named like Lance's system column " + Texts.quote(f.name())
          + ", which readers add to scans; choose another name";
    }
    if (problem != null) {
      throw new InvalidManifestException(Subject.field(f.id()), "field " + f.id() + " ("
          + Texts.quote(f.name()) + ") " + problem);
    }
  }

  /**
   * The fields every fragment must store: non-nullable fields that hold a column (leaves) and
   * whose ancestors are all non-nullable (a nullable struct may be absent with its members).
   */
  private static BitSet requiredFields(Manifest m) {
    BitSet out = new BitSet();
    BitSet nonNullPath = new BitSet();
    for (Field f : m.schema().fields()) {
      if (f.id() < 0 || f.nullable()) {
        continue;
      }
      if (f.isTopLevel() || (f.parentId() >= 0 && nonNullPath.get(f.parentId()))) {
        nonNullPath.set(f.id());
        if (LogicalTypes.shape(f.logicalType()) == LogicalTypes.Shape.LEAF) {
          out.set(f.id());
        }
      }
    }
    return out;
  }

  // ---- fragments ----------------------------------------------------------------------------

  private void fragments() {
    FragmentChanges.walk(previous.fragments(), next.fragments(), (f, was, changed) -> {
      if (changed) {
        changedFragment(f, was);
      } else if (!newlyRequired.isEmpty()) {
        requiredBacked(f, backed(f), newlyRequired, true);
      }
    });
  }

  private void changedFragment(Fragment f, Fragment was) {
    readRules.accept(f);
    Subject subject = Subject.fragment(f.id());
    String name = "fragment " + Long.toUnsignedString(f.id());
    if (f.id() < 0 || f.id() > MAX_FRAGMENT_ID) {
      throw new InvalidManifestException(subject, name + " has an id beyond the largest fragment "
          + "id (4294967295): a row address holds the fragment id in 32 bits");
    }
    if (f.files().isEmpty()) {
      throw new InvalidManifestException(subject, name + " has no data files; lance-core cannot "
          + "open a fragment without data (give it at least one data file with AddDataFile, or "
          + "leave the fragment out)");
    }
    if (f.physicalRows() == 0) {
      throw new InvalidManifestException(subject, name + " has physical_rows 0 but "
          + f.files().size() + " data file(s); a fragment holds at least one row (lance-core "
          + "fails on an empty one): set physical_rows to the rows its files hold");
    }
    if (Long.compareUnsigned(f.physicalRows(), MAX_ROWS) > 0) {
      throw new InvalidManifestException(subject, name + " has physical_rows "
          + Long.toUnsignedString(f.physicalRows()) + ", more than a fragment can address ("
          + MAX_ROWS + "): row offsets are 32-bit");
    }
    Set<String> oldFiles = new HashSet<>();
    if (was != null) {
      for (DataFile d : was.files()) {
        oldFiles.add(fileKey(d));
      }
    }
    BitSet backed = new BitSet();
    for (DataFile d : f.files()) {
      if (oldFiles.contains(fileKey(d))) {
        for (int slot : d.fields()) {
          if (slot >= 0) {
            backed.set(slot);
          }
        }
      }
    }
    Map<Integer, String> storedByNew = new HashMap<>();
    for (DataFile d : f.files()) {
      boolean isNew = !oldFiles.contains(fileKey(d));
      checkFile(f, d, isNew, "data file", backed, storedByNew);
    }
    requiredBacked(f, backed(f), required, false);
    if (f.deletionFile().isPresent() && (was == null || !f.deletionFile().equals(was.deletionFile()))) {
      deletionFile(f, f.deletionFile().get());
    }
    if (!f.overlays().isEmpty()) {
      Set<DataOverlayFile> oldOverlays = was == null ? Set.of() : new HashSet<>(was.overlays());
      for (DataOverlayFile o : f.overlays()) {
        if (!oldOverlays.contains(o)) {
          overlay(f, o);
        }
      }
    }
    if (next.usesStableRowIds() && f.rowIds().isEmpty()) {
      throw new InvalidManifestException(subject, name + " has no row ids, but the table uses "
          + "stable row ids: every fragment needs its row-id sequence");
    }
  }

  /** Checks one data (or overlay) file; a new one also against the fields others store. */
  private void checkFile(Fragment f, DataFile d, boolean isNew, String kind, BitSet backedByOld,
      Map<Integer, String> storedByNew) {
    Subject subject = Subject.file(f.id(), d.path());
    String name = "fragment " + Long.toUnsignedString(f.id()) + " " + kind + " " + Texts.quote(d.path());
    if (d.fields().isEmpty()) {
      throw new InvalidManifestException(subject, name + " lists no fields; a data file stores at "
          + "least one field (lance-core fails on one that stores none)");
    }
    boolean live = false;
    for (int slot : d.fields()) {
      if (slot >= 0 && fieldsById.containsKey(slot)) {
        live = true;
      } else if (slot >= 0 && isNew) {
        throw new InvalidManifestException(subject, name + " stores field id " + slot
            + ", which the schema does not have" + schemaIds());
      } else if (slot < 0 && slot != DataFile.TOMBSTONED) {
        throw new InvalidManifestException(subject, name + " has field slot " + slot
            + "; a slot holds a field id or -2 (tombstoned)");
      }
    }
    if (!live) {
      throw new InvalidManifestException(subject, name + " backs no field of the schema (its "
          + "fields " + d.fields() + " are all dropped, tombstoned or unknown)");
    }
    if (!isNew) {
      return;
    }
    if (!d.columnIndices().isEmpty() && d.columnIndices().size() != d.fields().size()) {
      throw new InvalidManifestException(subject, name + " lists " + d.fields().size()
          + " fields but " + d.columnIndices().size() + " column indices; give one column index "
          + "per field");
    }
    if (backedByOld == null) {
      return;
    }
    for (int slot : d.fields()) {
      if (slot < 0) {
        continue;
      }
      String other = storedByNew.putIfAbsent(slot, d.path());
      if (backedByOld.get(slot) || other != null) {
        throw new InvalidManifestException(subject, name + " stores field " + slot
            + ", which " + (other != null ? "data file " + Texts.quote(other) : "another data file")
            + " of the fragment stores too; tombstone it there first (TombstoneFieldData), so "
            + "that one file holds each field");
      }
    }
  }

  /** Every field of {@code need} is stored in {@code f}; a violation is the field's when it is new. */
  private void requiredBacked(Fragment f, BitSet backed, BitSet need, boolean blameField) {
    for (int id = need.nextSetBit(0); id >= 0; id = need.nextSetBit(id + 1)) {
      if (!backed.get(id)) {
        Field field = fieldsById.get(id);
        throw new InvalidManifestException(blameField ? Subject.field(id) : Subject.fragment(f.id()), "fragment "
            + Long.toUnsignedString(f.id()) + " has no data for non-nullable field " + id + " ("
            + Texts.quote(field.name()) + "); lance-core cannot scan a fragment that lacks a "
            + "required field: add its data to the fragment (AddDataFile) or make the field "
            + "nullable");
      }
    }
  }

  private static BitSet backed(Fragment f) {
    BitSet backed = new BitSet();
    for (DataFile d : f.files()) {
      for (int slot : d.fields()) {
        if (slot >= 0) {
          backed.set(slot);
        }
      }
    }
    return backed;
  }

  private static void deletionFile(Fragment f, DeletionFile d) {
    Subject subject = Subject.fragment(f.id());
    String name = "fragment " + Long.toUnsignedString(f.id()) + " deletion file";
    try {
      d.kind();
    } catch (FormatException e) {
      throw new InvalidManifestException(subject, name + " has the unknown type " + d.kindValue()
          + " (0 is an Arrow file, 1 a Roaring bitmap)");
    }
    if (Long.compareUnsigned(d.numDeletedRows(), f.physicalRows()) > 0) {
      throw new InvalidManifestException(subject, name + " deletes "
          + Long.toUnsignedString(d.numDeletedRows()) + " rows, but the fragment has only "
          + Long.toUnsignedString(f.physicalRows()));
    }
  }

  private void overlay(Fragment f, DataOverlayFile o) {
    checkFile(f, o.dataFile(), true, "overlay file", null, null);
    Subject subject = Subject.file(f.id(), o.dataFile().path());
    String name = "fragment " + Long.toUnsignedString(f.id()) + " overlay file "
        + Texts.quote(o.dataFile().path());
    if (o.coverage() instanceof DataOverlayFile.PerFieldCoverage per
        && per.offsetBitmaps().size() != o.dataFile().fields().size()) {
      throw new InvalidManifestException(subject, name + " has " + per.offsetBitmaps().size()
          + " coverage bitmaps for " + o.dataFile().fields().size() + " fields; give one per field");
    }
    RoaringBitmap covered;
    try {
      covered = o.coveredOffsets();
    } catch (FormatException e) {
      throw new InvalidManifestException(subject, name + ": " + e.defect());
    }
    if (!covered.isEmpty() && Integer.toUnsignedLong(covered.last()) >= f.physicalRows()) {
      throw new InvalidManifestException(subject, name + " covers row offset "
          + Integer.toUnsignedLong(covered.last()) + ", but the fragment has "
          + Long.toUnsignedString(f.physicalRows()) + " rows");
    }
  }

  private String schemaIds() {
    if (fieldsById.size() > 20) {
      return "";
    }
    return " (it has " + new java.util.TreeSet<>(fieldsById.keySet()) + ")";
  }

  private static String fileKey(DataFile d) {
    return d.baseId().isPresent() ? d.baseId().getAsInt() + ":" + d.path() : d.path();
  }

  // ---- bases --------------------------------------------------------------------------------

  private void bases() {
    if (next.basePaths().isEmpty()) {
      return;
    }
    Map<Integer, BasePath> before = new HashMap<>();
    for (BasePath b : previous.basePaths()) {
      before.put(b.id(), b);
    }
    Map<String, BasePath> names = new HashMap<>();
    Map<String, BasePath> paths = new HashMap<>();
    for (BasePath b : next.basePaths()) {
      BasePath was = before.get(b.id());
      if (was == null || !was.path().equals(b.path()) || !was.name().equals(b.name())
          || was.isDatasetRoot() != b.isDatasetRoot()) {
        newBase(b);
      }
      if (b.name().isPresent()) {
        BasePath clash = names.putIfAbsent(b.name().get(), b);
        if (clash != null) {
          throw new InvalidManifestException(Subject.base(b.id()), "base paths " + clash.id()
              + " and " + b.id() + " are both named " + Texts.quote(b.name().get())
              + "; base names are unique within a table (leave a name unset if it does not matter)");
        }
      }
      BasePath clash = paths.putIfAbsent(b.path(), b);
      if (clash != null) {
        throw new InvalidManifestException(Subject.base(b.id()), "base paths " + clash.id()
            + " and " + b.id() + " both point at " + Texts.quote(b.path())
            + "; base locations are unique within a table");
      }
    }
  }

  private void newBase(BasePath b) {
    Subject subject = Subject.base(b.id());
    String name = "base path " + b.id() + b.name().map(n -> " (" + Texts.quote(n) + ")").orElse("")
        + " at " + Texts.quote(b.path());
    String problem = basePathProblem(b.path());
    if (problem != null) {
      throw new InvalidManifestException(subject, name + ": " + problem);
    }
    if (b.name().isPresent() && b.name().get().isEmpty()) {
      throw new InvalidManifestException(subject, name + " has an empty name; give it a name, or "
          + "leave the name unset");
    }
    if (!policy.allows(b.path())) {
      throw new InvalidManifestException(subject, name + " is a location outside the table, and "
          + "the commit's base-path policy does not allow it (" + policy.describe() + "): a "
          + "base path makes every reader of the table read files there. Allow the location "
          + "explicitly (BasePathPolicy.allowUnder, or lancet commit --allow-base LOCATION)");
    }
  }

  /**
   * Why a base path is not a well-formed absolute location, or null: an absolute path or a URI,
   * with no '.', '..' or empty segment (one trailing '/' is allowed), no backslash or control
   * character, no drive letter, at most {@link RelativePath#MAX_LENGTH} characters.
   */
  static String basePathProblem(String path) {
    if (path.isEmpty()) {
      return "the path is empty";
    }
    if (path.length() > RelativePath.MAX_LENGTH) {
      return "the path is " + path.length() + " characters long, more than " + RelativePath.MAX_LENGTH;
    }
    for (int i = 0; i < path.length(); i++) {
      char c = path.charAt(i);
      if (c < 0x20 || c == 0x7f) {
        return (c == 0 ? "NUL" : "control") + " character at index " + i;
      }
      if (c == '\\') {
        return "backslash at index " + i + "; separate segments with '/'";
      }
    }
    if (path.length() >= 2 && path.charAt(1) == ':' && RelativePath.isAsciiLetter(path.charAt(0))) {
      return "a Windows drive letter; write the location as a URI (file:///...)";
    }
    String rest;
    if (path.charAt(0) == '/') {
      rest = path.substring(1);
    } else {
      int sep = path.indexOf("://");
      if (sep <= 0 || !isScheme(path.substring(0, sep))) {
        return "a relative path; a base path is an absolute path (/data/extra) or a URI "
            + "(s3://bucket/extra)";
      }
      String afterScheme = path.substring(sep + 3);
      int slash = afterScheme.indexOf('/');
      if (slash < 0) {
        return afterScheme.isEmpty() ? "the URI names no location" : null;
      }
      rest = afterScheme.substring(slash + 1);
    }
    if (rest.endsWith("/")) {
      rest = rest.substring(0, rest.length() - 1);
    }
    if (rest.isEmpty()) {
      return null;
    }
    for (String segment : rest.split("/", -1)) {
      if (segment.isEmpty()) {
        return "empty segment ('//')";
      }
      if (segment.equals(".") || segment.equals("..")) {
        return "a '" + segment + "' segment; write the location without it";
      }
    }
    return null;
  }

  private static boolean isScheme(String s) {
    if (s.isEmpty() || !RelativePath.isAsciiLetter(s.charAt(0))) {
      return false;
    }
    for (int i = 1; i < s.length(); i++) {
      char c = s.charAt(i);
      if (!(RelativePath.isAsciiLetter(c) || (c >= '0' && c <= '9') || c == '+' || c == '.' || c == '-')) {
        return false;
      }
    }
    return true;
  }

  // ---- indices ------------------------------------------------------------------------------

  private void indices() {
    if (nextIndices.isEmpty()) {
      return;
    }
    Set<UUID> before = new HashSet<>();
    for (IndexSegment s : previousIndices) {
      before.add(s.uuid());
    }
    for (IndexSegment s : nextIndices) {
      Subject subject = Subject.index(s.uuid().toString());
      String name = "index " + Texts.quote(s.name()) + " segment " + s.uuid();
      if (!s.name().startsWith("__lance_")) {
        for (int field : s.fields()) {
          if (!fieldsById.containsKey(field)) {
            throw new InvalidManifestException(subject, name + " is over field " + field
                + ", which the schema does not have" + schemaIds());
          }
        }
      }
      if (before.contains(s.uuid())) {
        continue;
      }
      if (s.name().isEmpty()) {
        throw new InvalidManifestException(subject, "index segment " + s.uuid() + " has an empty "
            + "name; segments of one index share its name");
      }
      if (Long.compareUnsigned(s.datasetVersion(), next.version()) > 0) {
        throw new InvalidManifestException(subject, name + " says it reflects version "
            + Long.toUnsignedString(s.datasetVersion()) + ", after the version being published ("
            + Long.toUnsignedString(next.version()) + ")");
      }
    }
  }

  private static String describe(Field f) {
    return "field " + f.id() + " (" + Texts.quote(f.name()) + ")";
  }
}
