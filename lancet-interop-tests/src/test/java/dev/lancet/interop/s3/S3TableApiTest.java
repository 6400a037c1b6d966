package dev.lancet.interop.s3;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancet.cli.Main;
import dev.lancet.datafile.lance.LanceDatasets;
import dev.lancet.datafile.lance.ReplayReader;
import dev.lancet.interop.lance.LanceFixtures;
import dev.lancet.store.s3.S3ProxyServer;
import dev.lancet.table.CreateOptions;
import dev.lancet.table.LanceTable;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;

/**
 * The table API on an {@code s3://} table with lance-core's storage options: one URI and one map
 * name the table for Lancet's store and for the data files lance-core writes through the
 * data-file seam. lance-core reads what Lancet wrote, and the CLI's table verbs take the same
 * options as {@code --storage-option}.
 */
class S3TableApiTest {
  private static final Schema SCHEMA = LanceFixtures.SIMPLE_SCHEMA;

  @Test
  void createAppendAndScanOnS3AndLanceCoreReadsIt() throws Exception {
    S3ProxyServer server = S3ProxyServer.shared();
    String uri = "s3://" + server.newBucket("table-api") + "/events";
    Map<String, String> options = server.storageOptions();
    try (BufferAllocator alloc = new RootAllocator()) {
      try (ReplayReader first = reader(alloc, 0, 120);
          LanceTable table = LanceTable.create(uri, first, CreateOptions.builder()
              .storageOptions(options).maxRowsPerFile(50).build());
          ReplayReader more = reader(alloc, 1000, 30)) {
        table.append(more);
        assertThat(table.countRows()).isEqualTo(150);
      }
      try (LanceTable table = LanceTable.open(uri, options)) {
        assertThat(ids(table.newScan().open())).hasSize(150).contains(0L, 119L, 1000L, 1029L);
        assertThat(table.version()).isEqualTo(2);
      }
    }
    assertThat(LanceDatasets.latestVersion(uri, options)).isEqualTo(2);
    assertThat(LanceDatasets.countRows(uri, options, 2)).isEqualTo(150);
    assertThat(LanceDatasets.fragmentRowCounts(uri, options, 2)).hasSize(4);
    long lanceIds = LanceDatasets.withDataset(uri, options, Optional.of(2L),
        ds -> ds.countRows("id >= 1000"));
    assertThat(lanceIds).isEqualTo(30);
  }

  @Test
  void theTableVerbsTakeStorageOptions() throws Exception {
    S3ProxyServer server = S3ProxyServer.shared();
    String uri = "s3://" + server.newBucket("table-cli") + "/t";
    List<String> opts = new ArrayList<>();
    server.storageOptions().forEach((k, v) -> {
      opts.add("--storage-option");
      opts.add(k + "=" + v);
    });
    assertThat(run(withOptions(opts, "add-columns", uri, "--null", "note:string")).code)
        .as("no table yet").isEqualTo(2);
    try (BufferAllocator alloc = new RootAllocator();
        ReplayReader data = reader(alloc, 0, 10);
        LanceTable t = LanceTable.create(uri, data, CreateOptions.builder()
            .storageOptions(server.storageOptions()).build())) {
      assertThat(t.countRows()).isEqualTo(10);
    }
    Result added = run(withOptions(opts, "add-columns", uri, "--null", "note:string"));
    assertThat(added.code).as(added.err).isZero();
    Result scan = run(withOptions(opts, "scan", uri, "--columns", "id,note", "--format", "csv"));
    assertThat(scan.code).as(scan.err).isZero();
    assertThat(scan.out.lines().toList()).hasSize(11).first().asString().contains("id");
    assertThat(LanceDatasets.columns(uri, server.storageOptions(), 2)).containsExactly("id", "name", "note");
  }

  private static List<String> withOptions(List<String> opts, String... args) {
    List<String> all = new ArrayList<>(List.of(args));
    all.addAll(opts);
    return all;
  }

  private record Result(int code, String out, String err) {}

  private static Result run(List<String> args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = Main.commandLine(new PrintWriter(out, true), new PrintWriter(err, true))
        .execute(args.toArray(String[]::new));
    return new Result(code, out.toString(), err.toString());
  }

  private static ReplayReader reader(BufferAllocator alloc, long start, int count) {
    List<VectorSchemaRoot> roots = new ArrayList<>();
    for (int done = 0; done < count; done += 25) {
      roots.add(LanceFixtures.rows(alloc, SCHEMA, start + done, Math.min(25, count - done)));
    }
    return new ReplayReader(alloc, SCHEMA, roots, true);
  }

  private static List<Long> ids(ArrowReader r) throws Exception {
    List<Long> out = new ArrayList<>();
    try (r) {
      while (r.loadNextBatch()) {
        BigIntVector id = (BigIntVector) r.getVectorSchemaRoot().getVector("id");
        for (int i = 0; i < id.getValueCount(); i++) {
          out.add(id.get(i));
        }
      }
    }
    return out;
  }
}
