package dev.lancet.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.lancet.cli.table.Progress;
import dev.lancet.table.DistanceMetric;
import dev.lancet.table.LanceTable;
import dev.lancet.table.Scan;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.apache.arrow.vector.ipc.ArrowReader;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code lancet search}: the rows whose vectors are nearest to a query vector. */
@Command(name = "search",
    description = {"Find the k rows whose vectors in --column are nearest to --vector, nearest "
        + "first, with their distance in _distance: an exact search over every live row "
        + "(docs/decisions/0028). Give --vector several times (or a JSON array of vectors) to "
        + "search for each in one pass; the rows then carry _query_index. Output as for scan."})
public final class SearchCommand implements Callable<Integer> {
  @Spec
  CommandSpec spec;

  @Mixin
  HelpOption help;

  @Mixin
  TableArgument target;

  @Option(names = "--column", required = true, paramLabel = "COL",
      description = "The vector column (fixed-size lists of float16/32/64 or uint8).")
  String column;

  @Option(names = "--vector", required = true, paramLabel = "JSON",
      description = "A query vector as a JSON array, e.g. '[0.1, 0.2, 0.3]', or an array of "
          + "such arrays; may be repeated.")
  List<String> vectors;

  @Option(names = {"-k", "--k"}, paramLabel = "K", defaultValue = "10",
      description = "How many nearest rows per query vector (default: ${DEFAULT-VALUE}).")
  int k;

  @Option(names = "--metric", paramLabel = "M",
      description = "l2 (squared Euclidean), cosine, dot or hamming (uint8 vectors). Default: "
          + "l2 for float vectors, hamming for uint8, or the metric of the column's vector index.")
  String metric;

  @Option(names = "--where", paramLabel = "PRED",
      description = "A SQL filter, applied to the nearest rows found (fewer than k may remain), "
          + "or before the search with --prefilter.")
  String where;

  @Option(names = "--prefilter",
      description = "Apply --where before the search: the k nearest of the rows it keeps.")
  boolean prefilter;

  @Option(names = "--nprobes", paramLabel = "N",
      description = "IVF partitions to probe (kept for index search; an exact search probes all).")
  Integer nprobes;

  @Option(names = "--refine-factor", paramLabel = "N",
      description = "Index-search re-ranking factor (kept for index search).")
  Integer refineFactor;

  @Option(names = "--no-index",
      description = "Search exactly even where the column has a vector index (Lancet does so "
          + "anyway for now, with a warning).")
  boolean noIndex;

  @Option(names = "--columns", split = ",", paramLabel = "a,b",
      description = "Only these columns (name _distance among them to place it).")
  List<String> columns;

  static final class At {
    @Option(names = "--version", paramLabel = "N", description = "Search version N.")
    Long version;

    @Option(names = "--tag", paramLabel = "T", description = "Search the version tag T names.")
    String tag;
  }

  @ArgGroup(exclusive = true)
  At at;

  @Option(names = "--limit", paramLabel = "N", description = "At most N of each query's rows.")
  Long limit;

  @Option(names = "--offset", paramLabel = "N", description = "Skip N of each query's rows.")
  Long offset;

  @Option(names = "--with-row-id", description = "Add the _rowid column.")
  boolean rowId;

  @Option(names = "--with-row-address", description = "Add the _rowaddr column.")
  boolean rowAddress;

  @picocli.CommandLine.Mixin
  RowOutputOptions rowOutput;

  @Override
  public Integer call() throws IOException {
    rowOutput.format(); // a bad format fails before the table is opened
    List<float[]> queries = new ArrayList<>();
    for (String v : vectors) {
      queries.addAll(parseVectors(v));
    }
    try (LanceTable table = target.open()) {
      Scan scan = table.newScan();
      if (columns != null) {
        scan.select(columns);
      }
      if (at != null && at.version != null) {
        scan.asOfVersion(at.version);
      }
      if (at != null && at.tag != null) {
        scan.asOfTag(at.tag);
      }
      if (where != null) {
        scan.filter(where);
      }
      if (limit != null) {
        scan.limit(limit);
      }
      if (offset != null) {
        scan.offset(offset);
      }
      if (rowId) {
        scan.withRowId();
      }
      if (rowAddress) {
        scan.withRowAddress();
      }
      if (queries.size() == 1) {
        scan.nearest(column, queries.get(0), k);
      } else {
        scan.nearest(column, queries, k);
      }
      scan.prefilter(prefilter).useIndex(!noIndex);
      if (metric != null) {
        scan.metric(DistanceMetric.parse(metric));
      }
      if (nprobes != null) {
        scan.nprobes(nprobes);
      }
      if (refineFactor != null) {
        scan.refineFactor(refineFactor);
      }
      try (ArrowReader reader = scan.open();
          Progress p = new Progress(spec.commandLine().getErr(), false, "found")) {
        rowOutput.print(spec, reader, p);
      }
    }
    return ExitCodes.OK;
  }

  /** One query vector ({@code [1, 2]}) or several ({@code [[1, 2], [3, 4]]}). */
  static List<float[]> parseVectors(String json) {
    JsonNode node;
    try {
      node = new ObjectMapper().readTree(json);
    } catch (IOException e) {
      throw new CliException("--vector '" + json + "' is not JSON: "
          + e.getMessage().lines().findFirst().orElse(""));
    }
    if (node == null || !node.isArray() || node.isEmpty()) {
      throw new CliException("--vector must be a non-empty JSON array of numbers (or of such "
          + "arrays), not '" + json + "'");
    }
    List<float[]> out = new ArrayList<>();
    if (node.get(0).isArray()) {
      for (JsonNode v : node) {
        out.add(numbers(v, json));
      }
    } else {
      out.add(numbers(node, json));
    }
    return out;
  }

  private static float[] numbers(JsonNode v, String json) {
    if (!v.isArray() || v.isEmpty()) {
      throw new CliException("--vector '" + json + "': each query vector must be a non-empty "
          + "JSON array of numbers");
    }
    float[] out = new float[v.size()];
    for (int i = 0; i < out.length; i++) {
      if (!v.get(i).isNumber()) {
        throw new CliException("--vector '" + json + "': value " + i + " (" + v.get(i)
            + ") is not a number");
      }
      out[i] = (float) v.get(i).asDouble();
    }
    return out;
  }
}
