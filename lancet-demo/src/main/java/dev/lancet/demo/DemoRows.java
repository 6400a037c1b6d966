package dev.lancet.demo;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.LongFunction;
import java.util.stream.LongStream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The demo table's columns and their values. Every value is a function of the row's {@code id}
 * so the final table can be checked against a model without remembering any data.
 */
public final class DemoRows {
  public static final String ID = "id";
  public static final String VALUE = "value";
  public static final String SCORE = "score";

  /** The file schema of an append: the key and the value. */
  public static final Schema ID_VALUE = new Schema(List.of(
      Field.notNullable(ID, new ArrowType.Int(64, true)),
      Field.nullable(VALUE, ArrowType.Utf8.INSTANCE)));

  private DemoRows() {}

  /** {@code value} as first written. */
  public static String value(long id) {
    return "v-" + id;
  }

  /** {@code value} after the column rewrite of fragment 0. */
  public static String rewrittenValue(long id) {
    return "w-" + id;
  }

  /** The added {@code score} column of the rows that existed when it was added. */
  public static int score(long id) {
    return Math.toIntExact(id * 10);
  }

  /** A root with {@code id} and {@code value} for the given ids, in order; the caller closes it. */
  public static VectorSchemaRoot idsAndValues(BufferAllocator alloc, List<Long> ids) {
    VectorSchemaRoot root = VectorSchemaRoot.create(ID_VALUE, alloc);
    BigIntVector id = (BigIntVector) root.getVector(ID);
    VarCharVector value = (VarCharVector) root.getVector(VALUE);
    id.allocateNew(ids.size());
    value.allocateNew(ids.size());
    for (int i = 0; i < ids.size(); i++) {
      id.set(i, ids.get(i));
      value.setSafe(i, value(ids.get(i)).getBytes(StandardCharsets.UTF_8));
    }
    root.setRowCount(ids.size());
    return root;
  }

  /** A one-column {@code value} root, one row per id (a fragment's physical rows, in order). */
  public static VectorSchemaRoot values(BufferAllocator alloc, List<Long> ids, LongFunction<String> valueOf) {
    VectorSchemaRoot root = VectorSchemaRoot.create(
        new Schema(List.of(Field.nullable(VALUE, ArrowType.Utf8.INSTANCE))), alloc);
    VarCharVector value = (VarCharVector) root.getVector(VALUE);
    value.allocateNew(ids.size());
    for (int i = 0; i < ids.size(); i++) {
      value.setSafe(i, valueOf.apply(ids.get(i)).getBytes(StandardCharsets.UTF_8));
    }
    root.setRowCount(ids.size());
    return root;
  }

  /** A one-column {@code score} root, one row per id. */
  public static VectorSchemaRoot scores(BufferAllocator alloc, List<Long> ids) {
    VectorSchemaRoot root = VectorSchemaRoot.create(
        new Schema(List.of(Field.nullable(SCORE, new ArrowType.Int(32, true)))), alloc);
    IntVector score = (IntVector) root.getVector(SCORE);
    score.allocateNew(ids.size());
    for (int i = 0; i < ids.size(); i++) {
      score.set(i, score(ids.get(i)));
    }
    root.setRowCount(ids.size());
    return root;
  }

  /** The ids {@code from} (inclusive) to {@code to} (exclusive). */
  public static List<Long> range(long from, long to) {
    return LongStream.range(from, to).boxed().toList();
  }
}
