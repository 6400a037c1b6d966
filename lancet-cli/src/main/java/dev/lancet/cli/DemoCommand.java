package dev.lancet.cli;

import dev.lancet.core.Table;
import dev.lancet.core.commit.VersionPublisher;
import dev.lancet.core.store.LocalObjectStore;
import dev.lancet.format.codec.SchemaCodec;
import dev.lancet.format.layout.ManifestNaming;
import dev.lancet.format.model.DataStorageFormat;
import dev.lancet.format.model.Field;
import dev.lancet.format.model.Manifest;
import dev.lancet.format.model.Schema;
import dev.lancet.format.pb.CommonProtos;
import dev.lancet.format.pb.TransactionProtos;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code lancet demo}: until the concurrent-writers demo lands with the commit loop, this
 * creates a small Lance table with Lancet (an empty table with a schema, then a config
 * commit), or reuses the table already in DIR, and prints its summary and history.
 */
@Command(name = "demo",
    description = {"Creates a small Lance table in DIR (default ./demo-table) with Lancet, "
        + "or reuses the table there, and prints its summary and history.",
        "(The concurrent-writers demo replaces this once the commit loop exists.)"})
public final class DemoCommand implements Callable<Integer> {
  static final String PREVIEW_NOTE =
      "lancet demo: preview (the concurrent-writers demo arrives with the commit loop).";

  @Spec
  CommandSpec spec;

  @Mixin
  HelpOption help;

  @Parameters(index = "0", arity = "0..1", paramLabel = "DIR",
      description = "Where the demo table lives (default: ${DEFAULT-VALUE}).", defaultValue = "demo-table")
  String dir;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    out.println(PREVIEW_NOTE);
    Path root = Path.of(dir).toAbsolutePath();
    if (Files.isDirectory(root.resolve("_versions"))) {
      out.println("Reusing the table in " + root);
    } else {
      if (Files.isDirectory(root) && !isEmpty(root)) {
        throw new CliException(root + " exists, is not empty and holds no Lance table; "
            + "name an empty or new directory");
      }
      create(root);
      out.println("Created a Lance table in " + root + " (2 versions)");
    }
    out.println();
    try (Table table = Table.open(root.toString())) {
      new ManifestReport(root.toString(), table.latest(), false, false).print(out);
      out.println();
      out.println("HISTORY");
      LogCommand.printAll(out, table);
    }
    out.flush();
    return ExitCodes.OK;
  }

  /** Version 1: an Overwrite that creates the schema; version 2: a config update. */
  static void create(Path root) {
    try (LocalObjectStore store = new LocalObjectStore(root)) {
      Schema schema = new Schema(List.of(
          Field.builder(0, "id", "int64").nullable(false).build(),
          Field.builder(1, "name", "string").build()), Map.of());
      Manifest v1 = Manifest.builder()
          .schema(schema)
          .version(1)
          .dataFormat(Optional.of(new DataStorageFormat("lance", "2.1")))
          .build();
      TransactionProtos.Transaction create = TransactionProtos.Transaction.newBuilder()
          .setReadVersion(0)
          .setUuid(UUID.randomUUID().toString())
          .setOverwrite(TransactionProtos.Transaction.Overwrite.newBuilder()
              .addAllSchema(SchemaCodec.fieldsToProto(schema.fields())))
          .build();
      VersionPublisher publisher = new VersionPublisher(store);
      publisher.publish(v1, List.of(), create, ManifestNaming.V2);

      Map<String, String> config = new HashMap<>();
      config.put("lancet.demo", "true");
      Manifest v2 = v1.toBuilder().version(2).config(config).build();
      TransactionProtos.Transaction configure = TransactionProtos.Transaction.newBuilder()
          .setReadVersion(1)
          .setUuid(UUID.randomUUID().toString())
          .setUpdateConfig(TransactionProtos.Transaction.UpdateConfig.newBuilder()
              .setConfigUpdates(CommonProtos.UpdateMap.newBuilder().addUpdateEntries(
                  CommonProtos.UpdateMapEntry.newBuilder().setKey("lancet.demo").setValue("true"))))
          .build();
      publisher.publish(v2, List.of(), configure, ManifestNaming.V2);
    } catch (IOException e) {
      throw new UncheckedIOException("creating the demo table in " + root, e);
    }
  }

  private static boolean isEmpty(Path dir) {
    try (var s = Files.list(dir)) {
      return s.findAny().isEmpty();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
