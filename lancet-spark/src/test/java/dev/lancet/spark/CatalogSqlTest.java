package dev.lancet.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lancet.table.LanceTable;
import java.util.List;
import java.util.UUID;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** SQL through the catalog: DDL, INSERT, time travel, DELETE, UPDATE, MERGE INTO. */
class CatalogSqlTest {
  private final SparkSession spark = SparkTestSession.get();
  private String ns;

  @BeforeEach
  void namespace() {
    ns = "db" + UUID.randomUUID().toString().replace("-", "").substring(0, 8);
    spark.sql("CREATE NAMESPACE lancet." + ns);
  }

  private String t(String name) {
    return "lancet." + ns + "." + name;
  }

  private List<String> rows(String sql) {
    return spark.sql(sql).collectAsList().stream().map(Row::toString).toList();
  }

  @Test
  void createInsertSelectWithTimeTravelAndDrop() {
    spark.sql("CREATE TABLE " + t("events") + " (id BIGINT NOT NULL, name STRING) "
        + "TBLPROPERTIES ('primaryKey' = 'id')");
    spark.sql("INSERT INTO " + t("events") + " VALUES (1, 'a'), (2, 'b')");
    spark.sql("INSERT INTO " + t("events") + " VALUES (3, 'c')");
    assertThat(rows("SELECT * FROM " + t("events") + " ORDER BY id"))
        .containsExactly("[1,a]", "[2,b]", "[3,c]");
    assertThat(rows("SELECT * FROM " + t("events") + " VERSION AS OF 2 ORDER BY id"))
        .containsExactly("[1,a]", "[2,b]");
    assertThat(rows("SELECT count(*) FROM " + t("events") + " VERSION AS OF 1"))
        .containsExactly("[0]");
    assertThat(rows("SHOW TABLES IN lancet." + ns)).anyMatch(r -> r.contains("events"));
    String uri = SparkTestSession.get().conf().get("spark.sql.catalog.lancet.root") + "/" + ns
        + "/events.lance";
    try (LanceTable table = LanceTable.open(uri)) {
      assertThat(table.schema().findField("id").getMetadata())
          .containsEntry(TableState.PRIMARY_KEY_FLAG, "true");
      table.tags().create("first", 2);
    }
    assertThat(rows("SELECT count(*) FROM " + t("events") + " VERSION AS OF 'first'"))
        .containsExactly("[2]");
    assertThat(rows("SELECT count(*) FROM " + t("events") + " TIMESTAMP AS OF '2999-01-01 00:00:00'"))
        .containsExactly("[3]");
    assertThatThrownBy(() -> spark.sql("SELECT * FROM " + t("events")
        + " TIMESTAMP AS OF '2000-01-01 00:00:00'").collect())
        .hasMessageContaining("no version of").hasMessageContaining("committed at or before 2000-01-01");
    spark.sql("DROP TABLE " + t("events"));
    assertThatThrownBy(() -> spark.sql("SELECT * FROM " + t("events")))
        .hasMessageContaining("cannot be found");
  }

  @Test
  void deleteUpdateAndMergeAreCompositeCommitsReadBackByLanceCore() {
    spark.sql("CREATE TABLE " + t("kv") + " (id BIGINT NOT NULL, v STRING) "
        + "TBLPROPERTIES ('primaryKey' = 'id', 'maxRowsPerFile' = '4')");
    spark.sql("INSERT INTO " + t("kv") + " SELECT id, concat('v', id) FROM range(0, 10)");
    spark.sql("DELETE FROM " + t("kv") + " WHERE id % 3 = 0");
    assertThat(spark.sql("SELECT id FROM " + t("kv") + " ORDER BY id").as(Encoders.LONG())
        .collectAsList()).containsExactly(1L, 2L, 4L, 5L, 7L, 8L);
    spark.sql("UPDATE " + t("kv") + " SET v = 'updated' WHERE id IN (1, 8)");
    spark.sql("CREATE OR REPLACE TEMP VIEW src AS SELECT * FROM VALUES (2, 'm2'), (5, 'm5'), (20, 'new20') AS s(id, v)");
    spark.sql("MERGE INTO " + t("kv") + " t USING src s ON t.id = s.id "
        + "WHEN MATCHED THEN UPDATE SET v = s.v WHEN NOT MATCHED THEN INSERT (id, v) VALUES (s.id, s.v)");
    assertThat(rows("SELECT * FROM " + t("kv") + " ORDER BY id")).containsExactly(
        "[1,updated]", "[2,m2]", "[4,v4]", "[5,m5]", "[7,v7]", "[8,updated]", "[20,new20]");
    String uri = spark.conf().get("spark.sql.catalog.lancet.root") + "/" + ns + "/kv.lance";
    java.nio.file.Path table = java.nio.file.Path.of(uri);
    try (LanceTable lt = LanceTable.open(uri)) {
      long v = lt.version();
      assertThat(dev.lancet.datafile.lance.LanceDatasets.countRows(table, v)).isEqualTo(7);
      // every statement was one commit: create, insert, delete, update, merge
      assertThat(v).isEqualTo(5);
    }
    assertThat(TableFiles.orphans(table)).isEmpty();
  }
}
