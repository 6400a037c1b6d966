package dev.lancet.cli;

import dev.lancet.core.Table;
import dev.lancet.core.version.Snapshot;
import dev.lancet.format.codec.IndexCodec;
import dev.lancet.format.codec.ManifestCodec;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code lancet inspect}: one version's manifest, as readable tables or as protobuf JSON. */
@Command(name = "inspect",
    description = {"Show one version of a table (default: the latest).",
        "Prints a header, then the schema, fragments, indices, config, table metadata and base "
            + "paths. With --json, prints exactly the Manifest message as protobuf JSON."})
public final class InspectCommand implements Callable<Integer> {
  @Spec
  CommandSpec spec;

  @Mixin
  HelpOption help;

  @Mixin
  StorageOptionsMixin storage;

  @Parameters(index = "0", paramLabel = "TABLE",
      description = "The table: a directory, file:///path, memory://name, s3://bucket/path or az://container/path.")
  String location;

  @Mixin
  VersionSelector selector;

  @Option(names = "--json", description = "Print the Manifest as protobuf JSON (nothing added).")
  boolean json;

  @Option(names = "--indices", description = "Only the index section: with --json the IndexSection "
      + "message as protobuf JSON, else the INDICES table.")
  boolean indices;

  @Option(names = "--files", description = "Also list every data file (path, fields, columns, "
      + "file version, size).")
  boolean files;

  @Option(names = "--all", description = "Show every fragment and data file, not only the first "
      + ManifestReport.DEFAULT_ROW_LIMIT + ".")
  boolean all;

  @Override
  public Integer call() {
    selector.validate();
    PrintWriter out = spec.commandLine().getOut();
    try (Table table = Table.open(location, storage.options())) {
      Snapshot snapshot = selector.select(table);
      if (json && indices) {
        out.println(ProtoJson.print(IndexCodec.toProto(snapshot.indices())));
      } else if (json) {
        out.println(ProtoJson.print(ManifestCodec.toProto(snapshot.manifest())));
      } else if (indices) {
        new ManifestReport(location, snapshot, all, files).printIndices(out);
      } else {
        new ManifestReport(location, snapshot, all, files).print(out);
      }
    }
    out.flush();
    return ExitCodes.OK;
  }
}
