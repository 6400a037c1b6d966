package dev.lancet.cli;

import dev.lancet.core.Table;
import dev.lancet.core.version.Snapshot;
import dev.lancet.format.pb.TransactionProtos.Transaction;
import java.io.PrintWriter;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code lancet show-txn}: the transaction that produced a version. */
@Command(name = "show-txn",
    description = {"Show the transaction that produced a version (default: the latest).",
        "Prints its envelope and operation; for a composite operation every step and action. "
            + "With --json, prints the Transaction message as protobuf JSON."})
public final class ShowTxnCommand implements Callable<Integer> {
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

  @Option(names = "--json", description = "Print the Transaction as protobuf JSON.")
  boolean json;

  @Override
  public Integer call() {
    selector.validate();
    PrintWriter out = spec.commandLine().getOut();
    try (Table table = Table.open(location, storage.options())) {
      Snapshot snapshot = selector.select(table);
      Optional<Transaction> txn = snapshot.transaction();
      if (txn.isEmpty()) {
        throw new CliException("version " + Formats.unsigned(snapshot.version())
            + " has no transaction recorded (its manifest names no transaction file and "
            + "carries none inline)");
      }
      if (json) {
        out.println(ProtoJson.print(txn.get()));
      } else {
        new TransactionReport(snapshot.version(), txn.get(), snapshot.manifest().schema()).print(out);
      }
    }
    out.flush();
    return ExitCodes.OK;
  }
}
