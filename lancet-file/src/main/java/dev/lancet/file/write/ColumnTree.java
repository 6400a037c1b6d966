package dev.lancet.file.write;

import dev.lancet.file.schema.ColumnLayout;
import dev.lancet.file.schema.LanceSchemas;
import dev.lancet.file.schema.SchemaException;
import dev.lancet.format.model.Field;
import dev.lancet.format.model.Schema;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * The fields of a file being written as a tree whose leaves are its 2.1 columns, in the order
 * {@link ColumnLayout} gives them slots. Only shapes the Java writer encodes are accepted; any
 * other is refused here, before a file is created, with what to do instead.
 */
final class ColumnTree {
  /** A field: a struct (children, no column) or a leaf (a column). */
  record Node(Field field, org.apache.arrow.vector.types.pojo.Field arrow, String path,
      int depth, List<Node> children, LeafColumn leaf) {
    boolean isLeaf() {
      return leaf != null;
    }

    boolean isList() {
      ArrowType.ArrowTypeID t = arrow.getType().getTypeID();
      return t == ArrowType.ArrowTypeID.List || t == ArrowType.ArrowTypeID.LargeList;
    }
  }

  final List<Node> roots;
  final List<LeafColumn> leaves;
  final List<Integer> leafFieldIds;
  /** Each leaf's path from its top-level field down to itself. */
  final Map<LeafColumn, List<Node>> chains;

  private ColumnTree(List<Node> roots, List<LeafColumn> leaves, List<Integer> leafFieldIds,
      Map<LeafColumn, List<Node>> chains) {
    this.roots = roots;
    this.leaves = leaves;
    this.leafFieldIds = leafFieldIds;
    this.chains = chains;
  }

  static ColumnTree of(Schema schema, WriterOptions options) {
    if (schema.fields().isEmpty()) {
      throw new InvalidBatchException("a Lance file needs at least one field; the schema has "
          + "none");
    }
    Map<Integer, List<Field>> children = LanceSchemas.childrenOf(schema);
    List<Node> roots = new ArrayList<>();
    List<LeafColumn> leaves = new ArrayList<>();
    List<Integer> ids = new ArrayList<>();
    Map<LeafColumn, List<Node>> chains = new java.util.IdentityHashMap<>();
    for (Field f : schema.topLevel()) {
      Node root = node(schema, f, children, f.name(), 1, leaves, ids, options, new ArrayList<>());
      roots.add(root);
      chain(root, new ArrayList<>(), chains);
    }
    List<Integer> expected = ColumnLayout.slotFieldIds(schema.fields(), 2, 1);
    if (!expected.equals(ids)) {
      throw new IllegalStateException("leaf order " + ids + " differs from the 2.1 slot order "
          + expected);
    }
    return new ColumnTree(List.copyOf(roots), List.copyOf(leaves), List.copyOf(ids), chains);
  }

  private static void chain(Node n, List<Node> above, Map<LeafColumn, List<Node>> out) {
    List<Node> path = new ArrayList<>(above);
    path.add(n);
    if (n.isLeaf()) {
      out.put(n.leaf(), List.copyOf(path));
    }
    for (Node c : n.children()) {
      chain(c, path, out);
    }
  }

  private static Node node(Schema schema, Field f, Map<Integer, List<Field>> children,
      String path, int depth, List<LeafColumn> leaves, List<Integer> ids,
      WriterOptions options, List<Boolean> lists) {
    org.apache.arrow.vector.types.pojo.Field arrow;
    try {
      arrow = LanceSchemas.toArrow(schema, f);
    } catch (SchemaException e) {
      throw new InvalidBatchException("column '" + path + "': " + e.getMessage());
    }
    String logical = f.logicalType();
    if (logical.startsWith("dict:") || f.dictionary().isPresent()) {
      throw refused(path, "a dictionary-encoded field (decode it to its values first; the "
          + "writer dictionary-encodes low-cardinality strings itself)");
    }
    if (truthy(f.metadata().get("packed")) || truthy(f.metadata().get("lance-encoding:packed"))) {
      throw refused(path, "a packed struct (lance-core 7.0.0 cannot read the packed structs "
          + "its own 2.1 writer makes; drop the 'packed' metadata to store it as a plain struct)");
    }
    if (f.metadata().containsKey("lance-encoding:blob")) {
      throw refused(path, "a blob column (the Java writer does not write blob layouts yet; "
          + "use lance-core's writer)");
    }
    if (depth > 100) {
      throw refused(path, "a field nested more than 100 levels deep");
    }
    List<Field> kids = children.getOrDefault(f.id(), List.of());
    ArrowType t = arrow.getType();
    if (t.getTypeID() == ArrowType.ArrowTypeID.Struct) {
      if (kids.isEmpty()) {
        throw refused(path, "a struct without fields");
      }
      List<Node> nodes = new ArrayList<>();
      List<Boolean> below = new ArrayList<>(lists);
      below.add(false);
      for (Field k : kids) {
        nodes.add(node(schema, k, children, path + "." + k.name(), depth + 1, leaves, ids,
            options, below));
      }
      return new Node(f, arrow, path, depth, List.copyOf(nodes), null);
    }
    if (t.getTypeID() == ArrowType.ArrowTypeID.List
        || t.getTypeID() == ArrowType.ArrowTypeID.LargeList) {
      if (kids.size() != 1) {
        throw refused(path, "a list with " + kids.size() + " item fields");
      }
      List<Boolean> below = new ArrayList<>(lists);
      below.add(true);
      if (below.stream().filter(b -> b).count() > 60) {
        throw refused(path, "nested in more than 60 lists");
      }
      Field item = kids.get(0);
      Node child = node(schema, item, children, path + "." + item.name(), depth + 1, leaves, ids,
          options, below);
      return new Node(f, arrow, path, depth, List.of(child), null);
    }
    LeafKind kind = kindOf(arrow, path);
    boolean[] isList = new boolean[depth + 1];
    for (int d = 1; d < depth; d++) {
      isList[d] = lists.get(d - 1);
    }
    LeafColumn leaf = new LeafColumn(path, kind, depth, isList, options.dictionary(),
        options.fsst());
    leaves.add(leaf);
    ids.add(f.id());
    return new Node(f, arrow, path, depth, List.of(), leaf);
  }

  private static boolean truthy(com.google.protobuf.ByteString v) {
    return v != null && v.toString(StandardCharsets.UTF_8).trim().equalsIgnoreCase("true");
  }

  static LeafKind kindOf(org.apache.arrow.vector.types.pojo.Field arrow, String path) {
    ArrowType t = arrow.getType();
    switch (t.getTypeID()) {
      case Bool:
        return new LeafKind.Bool();
      case Utf8:
      case Binary:
        return new LeafKind.Variable(4);
      case LargeUtf8:
      case LargeBinary:
        return new LeafKind.Variable(8);
      case FixedSizeList: {
        int dim = ((ArrowType.FixedSizeList) t).getListSize();
        org.apache.arrow.vector.types.pojo.Field item = arrow.getChildren().get(0);
        LeafKind inner = kindOf(item, path + ".item");
        if (!(inner instanceof LeafKind.Fixed fixed) || dim < 1) {
          throw refused(path, "a fixed-size list of " + item.getType() + " items (the Java "
              + "writer writes fixed-size lists of fixed-width numbers)");
        }
        return new LeafKind.Vector(dim, fixed.bytes());
      }
      default:
        int bytes = fixedBytes(t);
        if (bytes > 0) {
          // Floats are bit-packed as their raw bits too, as lance-core does: non-negative
          // values never set the sign bit, so a chunk of them packs at 63 or 31 bits.
          return new LeafKind.Fixed(bytes, true);
        }
        throw refused(path, "Arrow type " + t + " (the Java writer writes integers, floats, "
            + "booleans, dates, times, timestamps, durations, strings, binaries, fixed-size "
            + "lists of numbers and structs of these; use lance-core's writer for the rest)");
    }
  }

  private static int fixedBytes(ArrowType t) {
    return switch (t.getTypeID()) {
      case Int -> ((ArrowType.Int) t).getBitWidth() / 8;
      case FloatingPoint -> ((ArrowType.FloatingPoint) t).getPrecision()
          == FloatingPointPrecision.HALF ? 2
          : ((ArrowType.FloatingPoint) t).getPrecision() == FloatingPointPrecision.SINGLE ? 4 : 8;
      case Date -> ((ArrowType.Date) t).getUnit() == org.apache.arrow.vector.types.DateUnit.DAY
          ? 4 : 8;
      case Time -> ((ArrowType.Time) t).getBitWidth() / 8;
      case Timestamp, Duration -> 8;
      default -> -1;
    };
  }

  private static InvalidBatchException refused(String path, String what) {
    return new InvalidBatchException("column '" + path + "' is " + what);
  }
}
