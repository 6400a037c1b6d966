package dev.lancet.interop.expr;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.apache.arrow.c.ArrowArrayStream;
import org.apache.arrow.c.Data;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DateMilliVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.LargeVarCharVector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.UInt1Vector;
import org.apache.arrow.vector.UInt2Vector;
import org.apache.arrow.vector.UInt4Vector;
import org.apache.arrow.vector.UInt8Vector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.dictionary.Dictionary;
import org.apache.arrow.vector.dictionary.DictionaryEncoder;
import org.apache.arrow.vector.dictionary.DictionaryProvider;
import org.apache.arrow.vector.VectorUnloader;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.util.DictionaryUtility;
import org.apache.arrow.vector.ipc.message.ArrowDictionaryBatch;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.DictionaryEncoding;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.lance.Dataset;
import org.lance.WriteParams;

/**
 * A table with one column of every type the filter evaluator supports, written by lance-core, for
 * the filter conformance test. Every value is a function of {@code id} and every nullable column
 * has nulls on its own period, so predicates over two columns meet every null combination.
 */
final class FilterTable {

  static final int ROWS = 1_200;
  static final int ROWS_PER_FRAGMENT = 500;

  static final String[] WORDS = {
    "apple", "Apricot", "banana", "a%b", "a_b", "", "ünïcödé", "line\nbreak", "x\\y", "ABC", "abc",
    "Zebra", "aardvark", "_under", "%pct", "tail\\"
  };

  static final String[] TAGS = {"red", "green", "blue", "a_b"};

  private static final long BASE_SECONDS = 1_704_164_645L; // 2024-01-02T03:04:05Z

  static final DictionaryEncoding TAG_ENCODING =
      new DictionaryEncoding(1L, false, new ArrowType.Int(32, true));

  static final Schema SCHEMA =
      new Schema(
          List.of(
              Field.notNullable("id", new ArrowType.Int(64, true)),
              Field.nullable("i8", new ArrowType.Int(8, true)),
              Field.nullable("i16", new ArrowType.Int(16, true)),
              Field.nullable("i32", new ArrowType.Int(32, true)),
              Field.nullable("i64", new ArrowType.Int(64, true)),
              Field.nullable("u8", new ArrowType.Int(8, false)),
              Field.nullable("u16", new ArrowType.Int(16, false)),
              Field.nullable("u32", new ArrowType.Int(32, false)),
              Field.nullable("u64", new ArrowType.Int(64, false)),
              Field.nullable("f32", new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE)),
              Field.nullable("f64", new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE)),
              Field.nullable("b", ArrowType.Bool.INSTANCE),
              Field.nullable("name", ArrowType.Utf8.INSTANCE),
              Field.nullable("ls", ArrowType.LargeUtf8.INSTANCE),
              Field.nullable("bin", ArrowType.Binary.INSTANCE),
              Field.nullable("d32", new ArrowType.Date(DateUnit.DAY)),
              Field.nullable("d64", new ArrowType.Date(DateUnit.MILLISECOND)),
              Field.nullable("ts_s", new ArrowType.Timestamp(TimeUnit.SECOND, null)),
              Field.nullable("ts_ms", new ArrowType.Timestamp(TimeUnit.MILLISECOND, null)),
              Field.nullable("ts_us", new ArrowType.Timestamp(TimeUnit.MICROSECOND, null)),
              Field.nullable("ts_ns", new ArrowType.Timestamp(TimeUnit.NANOSECOND, null)),
              Field.nullable("ts_utc", new ArrowType.Timestamp(TimeUnit.MICROSECOND, "UTC")),
              Field.nullable(
                  "ts_ny", new ArrowType.Timestamp(TimeUnit.MICROSECOND, "America/New_York")),
              Field.nullable("dec", new ArrowType.Decimal(10, 2, 128)),
              new Field(
                  "props",
                  FieldType.nullable(ArrowType.Struct.INSTANCE),
                  List.of(
                      Field.nullable("a", new ArrowType.Int(32, true)),
                      Field.nullable("b", ArrowType.Utf8.INSTANCE),
                      new Field(
                          "deep",
                          FieldType.nullable(ArrowType.Struct.INSTANCE),
                          List.of(Field.nullable("x", new ArrowType.Int(64, true)))))),
              new Field(
                  "tag",
                  new FieldType(true, new ArrowType.Int(32, true), TAG_ENCODING),
                  List.of()),
              new Field(
                  "vec",
                  FieldType.nullable(new ArrowType.FixedSizeList(2)),
                  List.of(
                      Field.nullable(
                          "item", new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE))))));

  private FilterTable() {}

  // ---------------------------------------------------------------------------------------------
  // Values (null is a Java null)
  // ---------------------------------------------------------------------------------------------

  static Byte i8(long id) {
    return id % 10 == 9 ? null : (byte) ((id * 7) % 200 - 100);
  }

  static Short i16(long id) {
    return id % 8 == 3 ? null : (short) ((id * 31) % 20_000 - 10_000);
  }

  static Integer i32(long id) {
    if (id % 6 == 1) {
      return null;
    }
    if (id % 50 == 0) {
      return Integer.MAX_VALUE - (int) (id % 3);
    }
    if (id % 50 == 25) {
      return Integer.MIN_VALUE + (int) (id % 3);
    }
    return (int) ((id * 97) % 2_000 - 1_000);
  }

  static Long i64(long id) {
    if (id % 7 == 2) {
      return null;
    }
    return id % 100 == 0 ? Long.MAX_VALUE : id * 1_000_003L - 500_000_000L;
  }

  static Integer u8(long id) {
    return id % 5 == 4 ? null : (int) ((id * 13) % 256);
  }

  static Integer u16(long id) {
    return id % 9 == 0 ? null : (int) ((id * 101) % 65_536);
  }

  static Long u32(long id) {
    if (id % 4 == 2) {
      return null;
    }
    return id % 30 == 0 ? 4_294_967_295L : (id * 7_919L) % 4_000_000_000L;
  }

  /** As the raw 64 bits: {@code -1} is the unsigned maximum. */
  static Long u64(long id) {
    if (id % 11 == 3) {
      return null;
    }
    return id % 40 == 0 ? -1L : id * 123_456_789L;
  }

  static Float f32(long id) {
    if (id % 6 == 5) {
      return null;
    }
    if (id % 97 == 0) {
      return Float.NaN;
    }
    if (id % 89 == 0) {
      return -0.0f;
    }
    return (id % 20 - 10) / 4f;
  }

  static Double f64(long id) {
    if (id % 5 == 2) {
      return null;
    }
    if (id % 53 == 0) {
      return Double.NaN;
    }
    if (id % 61 == 0) {
      return -0.0;
    }
    if (id % 71 == 0) {
      return Double.POSITIVE_INFINITY;
    }
    return (id % 37 - 18) * 0.5;
  }

  static Boolean b(long id) {
    return id % 3 == 2 ? null : id % 2 == 0;
  }

  static String name(long id) {
    if (id % 8 == 5) {
      return null;
    }
    String w = WORDS[(int) (id % WORDS.length)];
    return id % 3 == 0 ? w : w + (id % 17);
  }

  static String ls(long id) {
    return id % 7 == 0 ? null : "L" + (id % 13);
  }

  static byte[] bin(long id) {
    return id % 9 == 8 ? null : new byte[] {(byte) (id % 256), (byte) ((id / 256) % 256)};
  }

  static Integer d32(long id) {
    return id % 10 == 7 ? null : (int) (19_700 + (id % 400) - 200);
  }

  static Long d64(long id) {
    return id % 12 == 1 ? null : (19_700 + (id % 300) - 150) * 86_400_000L;
  }

  /** Seconds since the epoch behind every timestamp column (units differ per column). */
  static long seconds(long id) {
    return BASE_SECONDS + (id - 600) * 2_237L + (id % 60);
  }

  static Long tsS(long id) {
    return id % 13 == 2 ? null : seconds(id);
  }

  static Long tsMs(long id) {
    return id % 9 == 5 ? null : seconds(id) * 1_000L + id % 1_000;
  }

  static Long tsUs(long id) {
    return id % 8 == 7 ? null : seconds(id) * 1_000_000L + id;
  }

  static Long tsNs(long id) {
    return id % 11 == 6 ? null : seconds(id) * 1_000_000_000L + id * 1_001L;
  }

  static Long tsUtc(long id) {
    return id % 10 == 3 ? null : seconds(id) * 1_000_000L;
  }

  static Long tsNy(long id) {
    return id % 14 == 9 ? null : seconds(id) * 1_000_000L;
  }

  /** Unscaled value of {@code dec} (scale 2). */
  static Long dec(long id) {
    return id % 6 == 0 ? null : (id * 137) % 100_000 - 50_000;
  }

  static boolean propsNull(long id) {
    return id % 11 == 5;
  }

  static Integer propsA(long id) {
    return propsNull(id) || id % 4 == 1 ? null : (int) (id * 3 - 1_000);
  }

  static String propsB(long id) {
    return propsNull(id) || id % 5 == 1 ? null : "b" + (id % 23);
  }

  static boolean innerNull(long id) {
    return propsNull(id) || id % 7 == 6;
  }

  static Long innerX(long id) {
    return innerNull(id) || id % 3 == 1 ? null : id * id;
  }

  static String tag(long id) {
    return id % 9 == 4 ? null : TAGS[(int) (id % TAGS.length)];
  }

  static float[] vec(long id) {
    return id % 13 == 7 ? null : new float[] {id, -id};
  }

  // ---------------------------------------------------------------------------------------------
  // Writing
  // ---------------------------------------------------------------------------------------------

  /** Writes the table with lance-core into {@code dir} (created). */
  @SuppressWarnings("deprecation")
  static Path write(Path dir) {
    try (BufferAllocator alloc = new RootAllocator();
        VarCharVector dictValues = dictionaryValues(alloc)) {
      Dictionary dictionary = new Dictionary(dictValues, TAG_ENCODING);
      DictionaryProvider.MapDictionaryProvider provider =
          new DictionaryProvider.MapDictionaryProvider(dictionary);
      WriteParams params =
          new WriteParams.Builder().withMaxRowsPerFile(ROWS_PER_FRAGMENT).build();
      try (VectorSchemaRoot root = rows(alloc, provider, 0, ROWS);
          RootReader reader = new RootReader(alloc, root, dictionary);
          ArrowArrayStream stream = ArrowArrayStream.allocateNew(alloc)) {
        Data.exportArrayStream(alloc, reader, stream);
        Dataset.create(alloc, stream, dir.toAbsolutePath().toString(), params).close();
      }
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    return dir;
  }

  /**
   * Hands one in-memory batch to lance-core without an IPC round trip: buffers sliced out of an
   * IPC body are only 8-byte aligned, and lance-core 7.0.0 aborts the JVM (a Rust panic across
   * JNI) on an FFI buffer it finds misaligned.
   */
  private static final class RootReader extends ArrowReader {
    private final VectorSchemaRoot source;
    private final Dictionary dictionary;
    private boolean done;

    RootReader(BufferAllocator alloc, VectorSchemaRoot source, Dictionary dictionary) {
      super(alloc);
      this.source = source;
      this.dictionary = dictionary;
    }

    @Override
    public boolean loadNextBatch() throws IOException {
      if (done) {
        return false;
      }
      ensureInitialized();
      try (VectorSchemaRoot dictRoot = VectorSchemaRoot.of(dictionary.getVector());
          ArrowRecordBatch dictBatch = new VectorUnloader(dictRoot).getRecordBatch()) {
        loadDictionary(new ArrowDictionaryBatch(dictionary.getEncoding().getId(), dictBatch, false));
      }
      try (ArrowRecordBatch batch = new VectorUnloader(source).getRecordBatch()) {
        loadRecordBatch(batch);
      }
      done = true;
      return true;
    }

    @Override
    public long bytesRead() {
      return 0;
    }

    @Override
    protected void closeReadSource() {}

    @Override
    protected Schema readSchema() {
      // ArrowReader expects the message form: a dictionary field typed by its values.
      DictionaryProvider provider = new DictionaryProvider.MapDictionaryProvider(dictionary);
      java.util.Set<Long> used = new java.util.HashSet<>();
      return new Schema(
          source.getSchema().getFields().stream()
              .map(f -> DictionaryUtility.toMessageFormat(f, provider, used))
              .toList());
    }
  }

  private static VarCharVector dictionaryValues(BufferAllocator alloc) {
    VarCharVector v =
        new VarCharVector(
            Field.nullable("tag-dictionary", ArrowType.Utf8.INSTANCE), alloc);
    v.allocateNew();
    for (int i = 0; i < TAGS.length; i++) {
      v.setSafe(i, TAGS[i].getBytes(StandardCharsets.UTF_8));
    }
    v.setValueCount(TAGS.length);
    return v;
  }

  /** Rows {@code start .. start + count - 1}; the caller closes the root. */
  static VectorSchemaRoot rows(
      BufferAllocator alloc, DictionaryProvider provider, long start, int count) {
    VectorSchemaRoot root = VectorSchemaRoot.create(SCHEMA, alloc);
    try {
      root.allocateNew();
      for (int i = 0; i < count; i++) {
        long id = start + i;
        ((BigIntVector) root.getVector("id")).setSafe(i, id);
        setByte((TinyIntVector) root.getVector("i8"), i, i8(id));
        Short s16 = i16(id);
        if (s16 == null) {
          ((SmallIntVector) root.getVector("i16")).setNull(i);
        } else {
          ((SmallIntVector) root.getVector("i16")).setSafe(i, s16);
        }
        setInt((IntVector) root.getVector("i32"), i, i32(id));
        setLong((BigIntVector) root.getVector("i64"), i, i64(id));
        Integer u8 = u8(id);
        if (u8 == null) {
          ((UInt1Vector) root.getVector("u8")).setNull(i);
        } else {
          ((UInt1Vector) root.getVector("u8")).setSafe(i, u8);
        }
        Integer u16 = u16(id);
        if (u16 == null) {
          ((UInt2Vector) root.getVector("u16")).setNull(i);
        } else {
          ((UInt2Vector) root.getVector("u16")).setSafe(i, u16);
        }
        Long u32 = u32(id);
        if (u32 == null) {
          ((UInt4Vector) root.getVector("u32")).setNull(i);
        } else {
          ((UInt4Vector) root.getVector("u32")).setSafe(i, (int) (long) u32);
        }
        Long u64 = u64(id);
        if (u64 == null) {
          ((UInt8Vector) root.getVector("u64")).setNull(i);
        } else {
          ((UInt8Vector) root.getVector("u64")).setSafe(i, u64);
        }
        Float f = f32(id);
        if (f == null) {
          ((Float4Vector) root.getVector("f32")).setNull(i);
        } else {
          ((Float4Vector) root.getVector("f32")).setSafe(i, f);
        }
        Double d = f64(id);
        if (d == null) {
          ((Float8Vector) root.getVector("f64")).setNull(i);
        } else {
          ((Float8Vector) root.getVector("f64")).setSafe(i, d);
        }
        Boolean bool = b(id);
        if (bool == null) {
          ((BitVector) root.getVector("b")).setNull(i);
        } else {
          ((BitVector) root.getVector("b")).setSafe(i, bool ? 1 : 0);
        }
        setString((VarCharVector) root.getVector("name"), i, name(id));
        String l = ls(id);
        if (l == null) {
          ((LargeVarCharVector) root.getVector("ls")).setNull(i);
        } else {
          ((LargeVarCharVector) root.getVector("ls"))
              .setSafe(i, l.getBytes(StandardCharsets.UTF_8));
        }
        byte[] bytes = bin(id);
        if (bytes == null) {
          ((VarBinaryVector) root.getVector("bin")).setNull(i);
        } else {
          ((VarBinaryVector) root.getVector("bin")).setSafe(i, bytes);
        }
        setInt((DateDayVector) root.getVector("d32"), i, d32(id));
        setLong((DateMilliVector) root.getVector("d64"), i, d64(id));
        setLong((TimeStampVector) root.getVector("ts_s"), i, tsS(id));
        setLong((TimeStampVector) root.getVector("ts_ms"), i, tsMs(id));
        setLong((TimeStampVector) root.getVector("ts_us"), i, tsUs(id));
        setLong((TimeStampVector) root.getVector("ts_ns"), i, tsNs(id));
        setLong((TimeStampVector) root.getVector("ts_utc"), i, tsUtc(id));
        setLong((TimeStampVector) root.getVector("ts_ny"), i, tsNy(id));
        Long dec = dec(id);
        DecimalVector dv = (DecimalVector) root.getVector("dec");
        if (dec == null) {
          dv.setNull(i);
        } else {
          dv.setSafe(i, BigDecimal.valueOf(dec, 2));
        }
        setProps((StructVector) root.getVector("props"), i, id);
        setVec((FixedSizeListVector) root.getVector("vec"), i, id);
      }
      for (FieldVector v : root.getFieldVectors()) {
        v.setValueCount(count);
      }
      StructVector props = (StructVector) root.getVector("props");
      for (FieldVector c : props.getChildrenFromFields()) {
        c.setValueCount(count);
        if (c instanceof StructVector inner) {
          for (FieldVector cc : inner.getChildrenFromFields()) {
            cc.setValueCount(count);
          }
        }
      }
      FixedSizeListVector vec = (FixedSizeListVector) root.getVector("vec");
      vec.getDataVector().setValueCount(count * 2);
      // The tag column: build the plain strings, then dictionary-encode them.
      try (VarCharVector plain =
          new VarCharVector(Field.nullable("tag", ArrowType.Utf8.INSTANCE), alloc)) {
        plain.allocateNew();
        for (int i = 0; i < count; i++) {
          setString(plain, i, tag(start + i));
        }
        plain.setValueCount(count);
        try (var encoded =
            (IntVector) DictionaryEncoder.encode(plain, provider.lookup(TAG_ENCODING.getId()))) {
          IntVector target = (IntVector) root.getVector("tag");
          target.allocateNew(count);
          for (int i = 0; i < count; i++) {
            if (encoded.isNull(i)) {
              target.setNull(i);
            } else {
              target.setSafe(i, encoded.get(i));
            }
          }
          target.setValueCount(count);
        }
      }
      root.setRowCount(count);
      return root;
    } catch (RuntimeException e) {
      root.close();
      throw e;
    }
  }

  private static void setProps(StructVector props, int i, long id) {
    IntVector a = props.getChild("a", IntVector.class);
    VarCharVector b = props.getChild("b", VarCharVector.class);
    StructVector inner = props.getChild("deep", StructVector.class);
    BigIntVector x = inner.getChild("x", BigIntVector.class);
    if (propsNull(id)) {
      props.setNull(i);
    } else {
      props.setIndexDefined(i);
    }
    setInt(a, i, propsA(id));
    setString(b, i, propsB(id));
    if (innerNull(id)) {
      inner.setNull(i);
    } else {
      inner.setIndexDefined(i);
    }
    setLong(x, i, innerX(id));
  }

  private static void setVec(FixedSizeListVector vec, int i, long id) {
    Float4Vector items = (Float4Vector) vec.getDataVector();
    float[] v = vec(id);
    if (v == null) {
      vec.setNull(i);
      items.setNull(i * 2);
      items.setNull(i * 2 + 1);
    } else {
      vec.setNotNull(i);
      items.setSafe(i * 2, v[0]);
      items.setSafe(i * 2 + 1, v[1]);
    }
  }

  private static void setByte(TinyIntVector v, int i, Byte x) {
    if (x == null) {
      v.setNull(i);
    } else {
      v.setSafe(i, x);
    }
  }

  private static void setInt(BaseFixedWidthVector v, int i, Integer x) {
    if (x == null) {
      v.setNull(i);
    } else if (v instanceof IntVector iv) {
      iv.setSafe(i, x);
    } else {
      ((DateDayVector) v).setSafe(i, x);
    }
  }

  private static void setLong(BaseFixedWidthVector v, int i, Long x) {
    if (x == null) {
      v.setNull(i);
    } else if (v instanceof BigIntVector bv) {
      bv.setSafe(i, x);
    } else if (v instanceof DateMilliVector dv) {
      dv.setSafe(i, x);
    } else {
      ((TimeStampVector) v).setSafe(i, x);
    }
  }

  private static void setString(VarCharVector v, int i, String s) {
    if (s == null) {
      v.setNull(i);
    } else {
      v.setSafe(i, s.getBytes(StandardCharsets.UTF_8));
    }
  }

}
