package dev.lancet.file.write;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.ValueVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * Splits a batch into its leaf columns' items. A first pass checks the whole batch (every
 * column present with the schema's type, enough values, no null where a field is not nullable
 * and its parents are valid, no null item inside a fixed-size list) and works out each item's
 * null code; only then are values appended, so a refused batch leaves the file untouched.
 */
final class BatchShredder {
  /** Rows appended to a column before it checks whether its page is full. */
  static final int SLICE_ROWS = 4096;

  private final ColumnTree tree;
  private byte[] scratch = new byte[1 << 16];

  BatchShredder(ColumnTree tree) {
    this.tree = tree;
  }

  /** A leaf's vector in the batch and its items' null codes. */
  record Shredded(LeafColumn leaf, FieldVector vector, byte[] codes) {}

  /** Checks the batch and returns each leaf's vector and codes, in leaf order. */
  List<Shredded> check(VectorSchemaRoot batch) {
    int rows = batch.getRowCount();
    Map<LeafColumn, Shredded> out = new IdentityHashMap<>();
    for (ColumnTree.Node root : tree.roots) {
      FieldVector v = batch.getVector(root.field().name());
      if (v == null) {
        throw new InvalidBatchException("the batch has no column '" + root.path() + "' (its "
            + "columns: " + names(batch) + ")");
      }
      visit(root, v, new byte[rows], rows, out);
    }
    List<Shredded> ordered = new ArrayList<>(tree.leaves.size());
    for (LeafColumn leaf : tree.leaves) {
      if (leaf.maxRep > 0) {
        List<ColumnTree.Node> chain = tree.chains.get(leaf);
        FieldVector root = batch.getVector(chain.get(0).field().name());
        for (int r = 0; r < rows; r++) {
          walk(chain, 0, root, r, leaf.maxRep, 0, leaf, false);
        }
        ordered.add(new Shredded(leaf, root, null));
      } else {
        ordered.add(out.get(leaf));
      }
    }
    return ordered;
  }

  private static String names(VectorSchemaRoot batch) {
    List<String> n = new ArrayList<>();
    batch.getSchema().getFields().forEach(f -> n.add(f.getName()));
    return n.toString();
  }

  private void visit(ColumnTree.Node node, ValueVector v, byte[] parentCodes, int rows,
      Map<LeafColumn, Shredded> out) {
    ArrowType expected = node.arrow().getType();
    ArrowType actual = v.getField().getType();
    if (v.getField().getDictionary() != null) {
      throw new InvalidBatchException("column '" + node.path() + "' is dictionary-encoded in "
          + "the batch; decode it to " + expected + " values first");
    }
    if (!expected.equals(actual)) {
      throw new InvalidBatchException("column '" + node.path() + "' is " + actual + " in the "
          + "batch but " + expected + " in the file's schema");
    }
    if (v.getValueCount() < rows) {
      throw new InvalidBatchException("column '" + node.path() + "' has " + v.getValueCount()
          + " values for a batch of " + rows + " rows");
    }
    if (node.isList()) {
      checkTypes(node.children().get(0), ((FieldVector) v)
          .getChildrenFromFields().get(0));
      return; // its leaves are walked row by row
    }
    byte[] codes = parentCodes.clone();
    if (v.getNullCount() > 0) {
      for (int i = 0; i < rows; i++) {
        if (codes[i] == 0 && v.isNull(i)) {
          if (!node.field().nullable()) {
            throw new InvalidBatchException("column '" + node.path() + "' (field id "
                + node.field().id() + ") is not nullable, but row " + i + " of the batch is "
                + "null; fill the value or make the field nullable");
          }
          codes[i] = (byte) (2 * node.depth());
        }
      }
    }
    if (!node.isLeaf()) {
      StructVector s = (StructVector) v;
      for (ColumnTree.Node child : node.children()) {
        ValueVector cv = s.getChild(child.field().name());
        if (cv == null) {
          throw new InvalidBatchException("struct '" + node.path() + "' in the batch has no "
              + "field '" + child.field().name() + "'");
        }
        visit(child, cv, codes, rows, out);
      }
      return;
    }
    if (v instanceof FixedSizeListVector fsl) {
      int dim = fsl.getListSize();
      FieldVector items = fsl.getDataVector();
      if (items.getValueCount() < (long) rows * dim) {
        throw new InvalidBatchException("column '" + node.path() + "' has "
            + items.getValueCount() + " items for " + rows + " vectors of " + dim);
      }
    }
    if (node.leaf().kind instanceof LeafKind.Variable var) {
      checkOffsets(node, (FieldVector) v, var.offsetBytes(), codes, rows);
    }
    out.put(node.leaf(), new Shredded(node.leaf(), (FieldVector) v, codes));
  }

  /** The types of a list's item subtree (its nulls are checked as its leaves are walked). */
  private static void checkTypes(ColumnTree.Node node, ValueVector v) {
    ArrowType expected = node.arrow().getType();
    ArrowType actual = v.getField().getType();
    if (v.getField().getDictionary() != null || !expected.equals(actual)) {
      throw new InvalidBatchException("column '" + node.path() + "' is " + actual + " in the "
          + "batch but " + expected + " in the file's schema");
    }
    if (node.isList()) {
      checkTypes(node.children().get(0), ((FieldVector) v)
          .getChildrenFromFields().get(0));
    } else if (!node.isLeaf()) {
      StructVector s = (StructVector) v;
      for (ColumnTree.Node child : node.children()) {
        ValueVector cv = s.getChild(child.field().name());
        if (cv == null) {
          throw new InvalidBatchException("struct '" + node.path() + "' in the batch has no "
              + "field '" + child.field().name() + "'");
        }
        checkTypes(child, cv);
      }
    }
  }

  /**
   * Walks row (or item) {@code i} of {@code v}, the vector of {@code chain[k]}, down to the
   * leaf: checks nullability, and when {@code emit} records the leaf's entries. {@code rep} is
   * the repetition level of the first entry; {@code code} the definition code from above.
   */
  private void walk(List<ColumnTree.Node> chain, int k, ValueVector v, int i, int rep, int code,
      LeafColumn leaf, boolean emit) {
    ColumnTree.Node node = chain.get(k);
    int d = k + 1;
    if (code == 0 && v.isNull(i)) {
      if (!node.field().nullable()) {
        throw new InvalidBatchException("column '" + node.path() + "' (field id "
            + node.field().id() + ") is not nullable, but it is null in row or item " + i
            + " under valid parents; fill the value or make the field nullable");
      }
      code = 2 * d;
    }
    if (node.isLeaf()) {
      if (emit) {
        emitValue(leaf, v, i, rep, code);
      }
      return;
    }
    if (!node.isList()) {
      ColumnTree.Node child = chain.get(k + 1);
      walk(chain, k + 1, ((StructVector) v).getChild(child.field().name()), i, rep, code, leaf,
          emit);
      return;
    }
    if (code != 0) {
      if (emit) {
        leaf.invisible(rep, code);
      }
      return;
    }
    long start;
    long end;
    ArrowBuf offsets = ((FieldVector) v).getOffsetBuffer();
    if (v instanceof org.apache.arrow.vector.complex.LargeListVector) {
      start = offsets.getLong((long) i * 8);
      end = offsets.getLong((long) (i + 1) * 8);
    } else {
      start = offsets.getInt((long) i * 4);
      end = offsets.getInt((long) (i + 1) * 4);
    }
    ValueVector items = ((FieldVector) v)
        .getChildrenFromFields().get(0);
    if (start < 0 || end < start || end > items.getValueCount()) {
      throw new InvalidBatchException("column '" + node.path() + "': list " + i + " spans "
          + "items " + start + ".." + end + " of " + items.getValueCount());
    }
    if (end == start) {
      if (emit) {
        leaf.invisible(rep, 2 * d + 1);
      }
      return;
    }
    int rank = 0;
    for (int j = k; j < chain.size(); j++) {
      rank += chain.get(j).isList() ? 1 : 0;
    }
    for (long j = start; j < end; j++) {
      walk(chain, k + 1, items, (int) j, j == start ? rep : rank - 1, 0, leaf, emit);
    }
  }

  /** Records a visible entry of leaf vector {@code v} at index {@code i}. */
  private static void emitValue(LeafColumn leaf, ValueVector v, int i, int rep, int code) {
    if (leaf.kind instanceof LeafKind.Fixed f) {
      leaf.visible(rep, code, ((FieldVector) v).getDataBuffer(), (long) i * f.bytes(), false);
    } else if (leaf.kind instanceof LeafKind.Vector vec) {
      FieldVector items = ((FixedSizeListVector) v).getDataVector();
      leaf.visible(rep, code, items.getDataBuffer(), (long) i * vec.bytes(), false);
      leaf.appendItemValidity(items.getValidityBuffer(), (long) i * vec.dimension(), 1);
    } else if (leaf.kind instanceof LeafKind.Bool) {
      boolean bit = code == 0 && ((BitVector) v).get(i) != 0;
      leaf.visible(rep, code, null, 0, bit);
    } else {
      int ob = ((LeafKind.Variable) leaf.kind).offsetBytes();
      if (code == 0) {
        FieldVector fv = (FieldVector) v;
        ArrowBuf offsets = fv.getOffsetBuffer();
        long s = ob == 4 ? offsets.getInt((long) i * 4) : offsets.getLong((long) i * 8);
        long e = ob == 4 ? offsets.getInt((long) (i + 1) * 4) : offsets.getLong((long) (i + 1) * 8);
        if (s < 0 || e < s || e > fv.getDataBuffer().capacity()) {
          throw new InvalidBatchException("column '" + leaf.path + "': item " + i + " has "
              + "offsets " + s + ".." + e + " outside its data buffer");
        }
        Bytes sink = leaf.valuesSink();
        sink.reserve((int) (e - s));
        fv.getDataBuffer().getBytes(s, sink.array(), sink.size(), (int) (e - s));
        sink.advance((int) (e - s));
      }
      leaf.visible(rep, code, null, 0, false);
    }
  }

  /** Every valid row's value lies inside the vector's data buffer. */
  private static void checkOffsets(ColumnTree.Node node, FieldVector v, int offsetBytes,
      byte[] codes, int rows) {
    ArrowBuf offsets = v.getOffsetBuffer();
    long capacity = v.getDataBuffer().capacity();
    for (int i = 0; i < rows; i++) {
      if (codes[i] != 0) {
        continue;
      }
      long start = offsetBytes == 4 ? offsets.getInt((long) i * 4) : offsets.getLong((long) i * 8);
      long end = offsetBytes == 4 ? offsets.getInt((long) (i + 1) * 4)
          : offsets.getLong((long) (i + 1) * 8);
      if (start < 0 || end < start || end > capacity) {
        throw new InvalidBatchException("column '" + node.path() + "': row " + i + " has "
            + "offsets " + start + ".." + end + " outside its data buffer of " + capacity
            + " bytes");
      }
      if (end - start > Integer.MAX_VALUE - 64) {
        throw new InvalidBatchException("column '" + node.path() + "': row " + i + " holds "
            + (end - start) + " bytes, more than a Lance page holds");
      }
    }
  }

  /**
   * Appends rows {@code [from, to)} of a checked leaf to its column (which starts a page at
   * file row {@code fileRow + from} if it has none open).
   */
  void append(Shredded s, int from, int to, long fileRow) {
    LeafColumn leaf = s.leaf();
    leaf.startAt(fileRow + from);
    if (leaf.maxRep > 0) {
      List<ColumnTree.Node> chain = tree.chains.get(leaf);
      for (int r = from; r < to; r++) {
        walk(chain, 0, s.vector(), r, leaf.maxRep, 0, leaf, true);
      }
      leaf.addRows(to - from);
      return;
    }
    int count = to - from;
    byte[] codes = java.util.Arrays.copyOfRange(s.codes(), from, to);
    if (leaf.kind instanceof LeafKind.Fixed f) {
      leaf.appendFixed(codes, count, s.vector().getDataBuffer(), (long) from * f.bytes());
    } else if (leaf.kind instanceof LeafKind.Vector vec) {
      FieldVector items = ((FixedSizeListVector) s.vector()).getDataVector();
      leaf.appendFixed(codes, count, items.getDataBuffer(), (long) from * vec.bytes());
      leaf.appendItemValidity(items.getNullCount() == 0 ? null : items.getValidityBuffer(),
          (long) from * vec.dimension(), count);
    } else if (leaf.kind instanceof LeafKind.Bool) {
      BitVector bits = (BitVector) s.vector();
      byte[] b = scratch((count + 7) / 8);
      java.util.Arrays.fill(b, 0, (count + 7) / 8, (byte) 0);
      ArrowBuf data = bits.getDataBuffer();
      for (int i = 0; i < count; i++) {
        int r = from + i;
        if ((data.getByte(r >>> 3) >>> (r & 7) & 1) != 0) {
          b[i >>> 3] |= (byte) (1 << (i & 7));
        }
      }
      leaf.appendBits(codes, count, b);
    } else {
      appendVariable(s, leaf, ((LeafKind.Variable) leaf.kind).offsetBytes(), from, to, codes);
    }
  }

  private void appendVariable(Shredded s, LeafColumn leaf, int offsetBytes, int from, int to,
      byte[] codes) {
    ArrowBuf offsets = s.vector().getOffsetBuffer();
    ArrowBuf data = s.vector().getDataBuffer();
    Bytes sink = leaf.valuesSink();
    for (int i = from; i < to; i++) {
      byte code = codes[i - from];
      if (code == 0) {
        long start = offsetBytes == 4 ? offsets.getInt((long) i * 4) : offsets.getLong((long) i * 8);
        long end = offsetBytes == 4 ? offsets.getInt((long) (i + 1) * 4)
            : offsets.getLong((long) (i + 1) * 8);
        long len = end - start;
        sink.reserve((int) len);
        data.getBytes(start, sink.array(), sink.size(), (int) len);
        sink.advance((int) len);
      }
      leaf.endVariable(code);
    }
  }

  private byte[] scratch(int len) {
    if (scratch.length < len) {
      scratch = new byte[Math.max(len, 2 * scratch.length)];
    }
    return scratch;
  }
}
