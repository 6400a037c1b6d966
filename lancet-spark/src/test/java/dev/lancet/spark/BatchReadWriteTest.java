package dev.lancet.spark;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.sql.Date;
import java.sql.Timestamp;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.Metadata;
import org.apache.spark.sql.types.MetadataBuilder;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;

class BatchReadWriteTest {
  private final SparkSession spark = SparkTestSession.get();

  static StructType allTypes() {
    Metadata fixed = new MetadataBuilder().putLong(SparkSchemas.FIXED_SIZE, 3).build();
    return new StructType(new StructField[] {
        new StructField("id", DataTypes.LongType, false, Metadata.empty()),
        new StructField("b", DataTypes.BooleanType, true, Metadata.empty()),
        new StructField("i8", DataTypes.ByteType, true, Metadata.empty()),
        new StructField("i16", DataTypes.ShortType, true, Metadata.empty()),
        new StructField("i32", DataTypes.IntegerType, true, Metadata.empty()),
        new StructField("f32", DataTypes.FloatType, true, Metadata.empty()),
        new StructField("f64", DataTypes.DoubleType, true, Metadata.empty()),
        new StructField("s", DataTypes.StringType, true, Metadata.empty()),
        new StructField("bin", DataTypes.BinaryType, true, Metadata.empty()),
        new StructField("dec", DataTypes.createDecimalType(20, 4), true, Metadata.empty()),
        new StructField("d", DataTypes.DateType, true, Metadata.empty()),
        new StructField("ts", DataTypes.TimestampType, true, Metadata.empty()),
        new StructField("ntz", DataTypes.TimestampNTZType, true, Metadata.empty()),
        new StructField("arr", DataTypes.createArrayType(DataTypes.IntegerType, true), true, Metadata.empty()),
        new StructField("vec", DataTypes.createArrayType(DataTypes.FloatType, false), true, fixed),
        new StructField("st", new StructType(new StructField[] {
            new StructField("x", DataTypes.IntegerType, true, Metadata.empty()),
            new StructField("y", DataTypes.StringType, true, Metadata.empty())}), true, Metadata.empty())});
  }

  static Row row(long i) {
    boolean nulls = i % 7 == 3;
    return RowFactory.create(i,
        nulls ? null : i % 2 == 0,
        nulls ? null : (byte) (i % 100),
        nulls ? null : (short) (i * 3),
        nulls ? null : (int) (i * 1000),
        nulls ? null : i / 4.0f,
        nulls ? null : i / 3.0,
        nulls ? null : "name-" + i + (i % 5 == 0 ? "é✓" : ""),
        nulls ? null : new byte[] {(byte) i, 1, 2},
        nulls ? null : new BigDecimal(i + ".1234"),
        nulls ? null : Date.valueOf("2024-01-01").toLocalDate().plusDays(i),
        nulls ? null : Timestamp.valueOf(LocalDateTime.of(2024, 1, 2, 3, 4, 5).plusSeconds(i)).toInstant(),
        nulls ? null : LocalDateTime.of(2024, 5, 6, 7, 8, 9).plusMinutes(i),
        nulls ? null : Arrays.asList((int) i, null, 3),
        nulls ? null : new float[] {i, i + 0.5f, -i},
        nulls ? null : RowFactory.create((int) i, "y" + i));
  }

  static List<Row> rows(long from, long to) {
    List<Row> out = new ArrayList<>();
    for (long i = from; i < to; i++) {
      out.add(row(i));
    }
    return out;
  }

  Dataset<Row> frame(long from, long to) {
    List<Row> rs = rows(from, to);
    // floats for the fixed-size list go in as Spark arrays
    List<Row> fixed = new ArrayList<>();
    for (Row r : rs) {
      Object[] v = new Object[r.length()];
      for (int c = 0; c < v.length; c++) {
        v[c] = r.get(c);
      }
      if (v[14] instanceof float[] f) {
        Float[] boxed = new Float[f.length];
        for (int k = 0; k < f.length; k++) {
          boxed[k] = f[k];
        }
        v[14] = Arrays.asList(boxed);
      }
      fixed.add(RowFactory.create(v));
    }
    return spark.createDataFrame(fixed, allTypes()).repartition(2);
  }

  @Test
  void everySupportedTypeRoundTrips() {
    Path dir = SparkTestSession.newDir("types");
    String uri = dir.resolve("t.lance").toString();
    spark.conf().set("spark.sql.datetime.java8API.enabled", "true");
    frame(0, 200).write().format("lancet").mode("append").option("maxRowsPerFile", "40").save(uri);
    Dataset<Row> back = spark.read().format("lancet").load(uri);
    assertThat(back.schema().fieldNames()).containsExactly(allTypes().fieldNames());
    List<Row> got = back.orderBy("id").collectAsList();
    assertThat(got).hasSize(200);
    Dataset<Row> expected = frame(0, 200).orderBy("id");
    assertThat(back.except(expected).count()).isZero();
    assertThat(expected.except(back).count()).isZero();
  }

  @Test
  void aMapColumnIsRefusedWithTheReasonAndNothingIsWritten() {
    Path dir = SparkTestSession.newDir("map");
    String uri = dir.resolve("t.lance").toString();
    StructType schema = new StructType(new StructField[] {
        new StructField("m", DataTypes.createMapType(DataTypes.StringType, DataTypes.LongType, true),
            true, Metadata.empty())});
    Dataset<Row> df = spark.createDataFrame(List.of(RowFactory.create(Map.of("a", 1L))), schema);
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () -> df.write().format("lancet").mode("append").save(uri))
        .hasMessageContaining("column 'm' cannot be stored by Lance");
    assertThat(dir.resolve("t.lance").resolve("_versions")).doesNotExist();
  }
}
