package dev.lancet.file.schema;

import com.google.protobuf.ByteString;
import dev.lancet.format.model.Field;
import dev.lancet.format.model.Schema;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.arrow.vector.dictionary.Dictionary;
import org.apache.arrow.vector.dictionary.DictionaryProvider;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.DictionaryEncoding;
import org.apache.arrow.vector.types.pojo.FieldType;

/**
 * Arrow schemas to Lance fields and back, exactly as lance-core maps them: the same logical type
 * strings, field ids in pre-order depth-first order (a parent before its children), parent ids,
 * nullability, field and schema metadata, the field {@code encoding} lance-core records, and the
 * unenforced primary and clustering key markers it derives from metadata. The interop suite
 * compares every facet with the manifests lance-core 7.0.0 writes for the same Arrow schemas.
 *
 * <p>Shapes (upstream {@code rust/lance-core/src/datatypes/field.rs}, {@code TryFrom<&ArrowField>}):
 * a struct is a field with one child per member; a list or large list has one child, the item
 * ({@code "list.struct"} when the item is a struct); a fixed-size list of a primitive is one leaf
 * ({@code "fixed_size_list:float:128"}), of a struct a field with the item struct as its child
 * ({@code "fixed_size_list:struct:2"}); a dictionary-encoded column is one leaf
 * {@code "dict:<value>:<index>:false"} with an empty dictionary record.
 */
public final class LanceSchemas {
  /** Field {@code encoding} values (lance.file.Encoding). */
  static final int ENCODING_NONE = 0;
  static final int ENCODING_PLAIN = 1;
  static final int ENCODING_VAR_BINARY = 2;
  static final int ENCODING_DICTIONARY = 3;

  static final String PK_FLAG = "lance-schema:unenforced-primary-key";
  static final String PK_POSITION = "lance-schema:unenforced-primary-key:position";
  static final String CLUSTERING_POSITION = "lance-schema:unenforced-clustering-key:position";

  private LanceSchemas() {}

  /**
   * The Lance schema for {@code arrow}, its field ids minted from {@code firstId} in pre-order.
   * Dictionary-encoded fields take their value type from {@code dictionaries}.
   *
   * @throws SchemaException for a field Lance cannot store, naming it and saying why
   */
  public static Schema toLance(org.apache.arrow.vector.types.pojo.Schema arrow, int firstId,
      Optional<DictionaryProvider> dictionaries) {
    List<Field> out = new ArrayList<>();
    int[] next = {firstId};
    checkUniqueNames(arrow.getFields(), "the schema");
    for (org.apache.arrow.vector.types.pojo.Field f : arrow.getFields()) {
      add(f, Field.NO_PARENT, out, next, f.getName(), dictionaries);
    }
    if (out.isEmpty()) {
      throw new SchemaException("a Lance table needs at least one column; the Arrow schema "
          + "has none");
    }
    return new Schema(out, utf8(arrow.getCustomMetadata()));
  }

  /** {@link #toLance} for a single field (and its children), for schema additions. */
  public static List<Field> fieldToLance(org.apache.arrow.vector.types.pojo.Field arrow,
      int firstId, Optional<DictionaryProvider> dictionaries) {
    List<Field> out = new ArrayList<>();
    add(arrow, Field.NO_PARENT, out, new int[] {firstId}, arrow.getName(), dictionaries);
    return out;
  }

  private static void add(org.apache.arrow.vector.types.pojo.Field f, int parentId,
      List<Field> out, int[] next, String path, Optional<DictionaryProvider> dictionaries) {
    if (f.getName() == null || f.getName().isEmpty()) {
      throw new SchemaException("column '" + path + "' has an empty name; every Lance "
          + "field needs a name");
    }
    int id = next[0]++;
    Field.Builder b = Field.builder(id, f.getName(), "")
        .parentId(parentId)
        .nullable(f.isNullable())
        .metadata(utf8(f.getMetadata()));
    keyMarkers(b, f.getMetadata());
    DictionaryEncoding dict = f.getDictionary();
    if (dict != null) {
      out.add(b.logicalType(dictionaryType(f, dict, path, dictionaries))
          .encodingValue(ENCODING_DICTIONARY)
          .dictionary(Optional.of(new Field.Dictionary(0, 0)))
          .build());
      return;
    }
    ArrowType type = f.getType();
    List<org.apache.arrow.vector.types.pojo.Field> children = f.getChildren();
    switch (type.getTypeID()) {
      case Struct -> {
        checkUniqueNames(children, "struct '" + path + "'");
        out.add(b.logicalType("struct").encodingValue(ENCODING_NONE).build());
        for (org.apache.arrow.vector.types.pojo.Field c : children) {
          add(c, id, out, next, path + "." + c.getName(), dictionaries);
        }
      }
      case List, LargeList -> {
        org.apache.arrow.vector.types.pojo.Field item = children.get(0);
        String base = type.getTypeID() == ArrowType.ArrowTypeID.List ? "list" : "large_list";
        boolean structItem = item.getType().getTypeID() == ArrowType.ArrowTypeID.Struct;
        out.add(b.logicalType(structItem ? base + ".struct" : base)
            .encodingValue(ENCODING_PLAIN).build());
        add(item, id, out, next, path + "." + item.getName(), dictionaries);
      }
      case FixedSizeList -> {
        int size = ((ArrowType.FixedSizeList) type).getListSize();
        org.apache.arrow.vector.types.pojo.Field item = children.get(0);
        if (item.getType().getTypeID() == ArrowType.ArrowTypeID.Struct && item.getDictionary() == null) {
          out.add(b.logicalType("fixed_size_list:struct:" + size).encodingValue(ENCODING_PLAIN)
              .build());
          add(item, id, out, next, path + "." + item.getName(), dictionaries);
        } else {
          out.add(b.logicalType("fixed_size_list:" + fixedSizeListItem(item, path) + ":" + size)
              .encodingValue(ENCODING_PLAIN).build());
        }
      }
      case Map -> throw unsupported(path, "a map column (Lance stores maps from file format 2.2 "
          + "on, which lance-core 7.0.0 cannot write); store it as a list of key/value structs");
      default -> {
        String logical = leaf(type, path);
        out.add(b.logicalType(logical).encodingValue(Field.encodingOf(logical)).build());
      }
    }
  }

  private static String fixedSizeListItem(org.apache.arrow.vector.types.pojo.Field item,
      String path) {
    ArrowType t = item.getType();
    if (item.getDictionary() != null) {
      throw unsupported(path, "a fixed-size list of dictionary-encoded values");
    }
    if (t instanceof ArrowType.FixedSizeList inner) {
      return "fixed_size_list:" + fixedSizeListItem(item.getChildren().get(0), path) + ":"
          + inner.getListSize();
    }
    switch (t.getTypeID()) {
      case List, LargeList, Map, Struct -> throw unsupported(path, "a fixed-size list of "
          + t.getTypeID().name().toLowerCase(Locale.ROOT) + " items inside a fixed-size list");
      default -> {
        return leaf(t, path);
      }
    }
  }

  private static String leaf(ArrowType type, String path) {
    Optional<String> logical = LogicalTypes.ofLeaf(type);
    if (logical.isEmpty()) {
      String hint = switch (type.getTypeID()) {
        case Utf8View -> "; cast it to Utf8 (string)";
        case BinaryView -> "; cast it to Binary";
        default -> "";
      };
      throw unsupported(path, "Arrow type " + type + hint);
    }
    if (type instanceof ArrowType.Timestamp ts && ts.getTimezone() != null
        && ts.getTimezone().contains(":")) {
      // lance-core 7.0.0 splits the logical type at every ':' and cannot open such a table.
      throw unsupported(path, "a timestamp whose time zone '" + ts.getTimezone() + "' contains "
          + "':' (lance-core 7.0.0 cannot read it back); write the offset without the colon ('"
          + ts.getTimezone().replace(":", "") + "') or use a zone name such as 'UTC'");
    }
    return logical.get();
  }

  private static String dictionaryType(org.apache.arrow.vector.types.pojo.Field f,
      DictionaryEncoding dict, String path, Optional<DictionaryProvider> dictionaries) {
    Dictionary d = dictionaries.map(p -> p.lookup(dict.getId())).orElse(null);
    if (d == null) {
      throw new SchemaException("column '" + path + "' is dictionary-encoded (dictionary "
          + dict.getId() + "), but its dictionary is not available to tell its value type; "
          + "create or append from an ArrowReader that carries the dictionary");
    }
    ArrowType valueType = d.getVectorType();
    Optional<String> value = LogicalTypes.ofLeaf(valueType);
    if (value.isEmpty() || valueType.getTypeID() == ArrowType.ArrowTypeID.Null) {
      throw unsupported(path, "a dictionary of " + valueType + " values");
    }
    ArrowType index = dict.getIndexType();
    return "dict:" + value.get() + ":" + LogicalTypes.ofLeaf(index).orElseThrow() + ":false";
  }


  /** The unenforced key markers lance-core derives from a field's metadata. */
  private static void keyMarkers(Field.Builder b, Map<String, String> md) {
    if (md == null) {
      return;
    }
    Optional<Integer> pkPos = u32(md.get(PK_POSITION));
    boolean pkFlag = truthy(md.get(PK_FLAG));
    if (pkPos.isPresent() || pkFlag) {
      b.unenforcedPrimaryKey(true).unenforcedPrimaryKeyPosition(pkPos.orElse(0));
    }
    Optional<Integer> ckPos = u32(md.get(CLUSTERING_POSITION));
    if (ckPos.isPresent()) {
      b.unenforcedClusteringKey(true).unenforcedClusteringKeyPosition(ckPos.get());
    }
  }

  private static boolean truthy(String v) {
    if (v == null) {
      return false;
    }
    String s = v.toLowerCase(Locale.ROOT);
    return s.equals("true") || s.equals("1") || s.equals("yes");
  }

  private static Optional<Integer> u32(String v) {
    if (v == null || v.isEmpty() || v.length() > 10 || !v.chars().allMatch(Character::isDigit)) {
      return Optional.empty();
    }
    long n = Long.parseLong(v);
    return n <= 0xFFFF_FFFFL ? Optional.of((int) n) : Optional.empty();
  }

  private static void checkUniqueNames(List<org.apache.arrow.vector.types.pojo.Field> fields,
      String where) {
    Set<String> seen = new HashSet<>();
    for (org.apache.arrow.vector.types.pojo.Field f : fields) {
      if (!seen.add(f.getName())) {
        throw new SchemaException(where + " has two fields named '" + f.getName()
            + "'; Lance field names must be unique among siblings");
      }
    }
  }

  private static SchemaException unsupported(String path, String what) {
    return new SchemaException("column '" + path + "' cannot be stored by Lance: " + what);
  }

  private static Map<String, ByteString> utf8(Map<String, String> md) {
    Map<String, ByteString> out = new LinkedHashMap<>();
    if (md != null) {
      md.forEach((k, v) -> out.put(k, ByteString.copyFrom(v, StandardCharsets.UTF_8)));
    }
    return out;
  }

  private static Map<String, String> strings(Map<String, ByteString> md) {
    Map<String, String> out = new LinkedHashMap<>();
    md.forEach((k, v) -> out.put(k, v.toStringUtf8()));
    return out;
  }

  // ---- Lance to Arrow ---------------------------------------------------------------------

  /**
   * The Arrow schema of a Lance schema. Dictionary-encoded columns come back in Arrow's
   * in-memory form (the index type, with the encoding; dictionary ids from 0 in schema order).
   */
  public static org.apache.arrow.vector.types.pojo.Schema toArrow(Schema lance) {
    Map<Integer, List<Field>> children = childrenOf(lance);
    long[] dictionaryIds = {0};
    List<org.apache.arrow.vector.types.pojo.Field> out = new ArrayList<>();
    for (Field f : lance.topLevel()) {
      out.add(toArrow(f, children, dictionaryIds));
    }
    return new org.apache.arrow.vector.types.pojo.Schema(out, strings(lance.metadata()));
  }

  /** The Arrow field of {@code field} (with its descendants from {@code lance}). */
  public static org.apache.arrow.vector.types.pojo.Field toArrow(Schema lance, Field field) {
    return toArrow(field, childrenOf(lance), new long[] {0});
  }

  /** Children of every field, in schema order. */
  public static Map<Integer, List<Field>> childrenOf(Schema lance) {
    Map<Integer, List<Field>> children = new HashMap<>();
    for (Field f : lance.fields()) {
      if (!f.isTopLevel()) {
        children.computeIfAbsent(f.parentId(), k -> new ArrayList<>()).add(f);
      }
    }
    return children;
  }

  private static org.apache.arrow.vector.types.pojo.Field toArrow(Field f,
      Map<Integer, List<Field>> children, long[] dictionaryIds) {
    String lt = f.logicalType();
    String where = "field " + f.id() + " ('" + f.name() + "')";
    List<Field> kids = children.getOrDefault(f.id(), List.of());
    Map<String, String> md = strings(f.metadata());
    ArrowType type;
    List<org.apache.arrow.vector.types.pojo.Field> arrowKids = new ArrayList<>();
    DictionaryEncoding dict = null;
    if (lt.equals("struct")) {
      type = ArrowType.Struct.INSTANCE;
      for (Field k : kids) {
        arrowKids.add(toArrow(k, children, dictionaryIds));
      }
    } else if (lt.equals("list") || lt.equals("list.struct")
        || lt.equals("large_list") || lt.equals("large_list.struct")) {
      type = lt.startsWith("large") ? ArrowType.LargeList.INSTANCE : ArrowType.List.INSTANCE;
      arrowKids.add(toArrow(onlyChild(kids, where), children, dictionaryIds));
    } else if (lt.startsWith("fixed_size_list:")) {
      int cut = lt.lastIndexOf(':');
      int size = Integer.parseInt(lt.substring(cut + 1));
      String inner = lt.substring("fixed_size_list:".length(), cut);
      type = new ArrowType.FixedSizeList(size);
      if (inner.equals("struct")) {
        arrowKids.add(toArrow(onlyChild(kids, where), children, dictionaryIds));
      } else {
        arrowKids.add(fixedSizeListItem(inner, where));
      }
    } else if (lt.startsWith("dict:")) {
      String[] parts = lt.split(":");
      if (parts.length != 4) {
        throw new SchemaException(where + ": unsupported dictionary type '" + lt + "'");
      }
      ArrowType.Int index = (ArrowType.Int) LogicalTypes.leafType(parts[2], where);
      dict = new DictionaryEncoding(dictionaryIds[0]++, false, index);
      type = index;
    } else if (lt.equals("map")) {
      throw new SchemaException(where + " is a map, which lance-core 7.0.0 and Lancet do "
          + "not read yet");
    } else {
      type = LogicalTypes.leafType(lt, where);
    }
    return new org.apache.arrow.vector.types.pojo.Field(f.name(),
        new FieldType(f.nullable(), type, dict, md.isEmpty() ? null : md), arrowKids);
  }

  /** The Arrow value type of a dictionary column's logical type. */
  public static ArrowType dictionaryValueType(String logicalType, String where) {
    String[] parts = logicalType.split(":");
    return LogicalTypes.leafType(parts[1], where);
  }

  private static org.apache.arrow.vector.types.pojo.Field fixedSizeListItem(String inner,
      String where) {
    if (inner.startsWith("fixed_size_list:")) {
      int cut = inner.lastIndexOf(':');
      int size = Integer.parseInt(inner.substring(cut + 1));
      return new org.apache.arrow.vector.types.pojo.Field("item",
          FieldType.nullable(new ArrowType.FixedSizeList(size)),
          List.of(fixedSizeListItem(inner.substring("fixed_size_list:".length(), cut), where)));
    }
    if (inner.equals("lance.bfloat16")) {
      return new org.apache.arrow.vector.types.pojo.Field("item",
          new FieldType(true, new ArrowType.FixedSizeBinary(2), null,
              Map.of("ARROW:extension:name", "lance.bfloat16", "ARROW:extension:metadata", "")),
          List.of());
    }
    return new org.apache.arrow.vector.types.pojo.Field("item",
        FieldType.nullable(LogicalTypes.leafType(inner, where)), List.of());
  }

  private static Field onlyChild(List<Field> kids, String where) {
    if (kids.size() != 1) {
      throw new SchemaException(where + " is a list but has " + kids.size()
          + " child fields instead of one");
    }
    return kids.get(0);
  }
}
