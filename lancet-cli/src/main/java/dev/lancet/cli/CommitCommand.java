package dev.lancet.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lancet.core.Table;
import dev.lancet.core.action.ActionCodec;
import dev.lancet.core.commit.CommitResult;
import dev.lancet.core.operation.LegacyOperationCodec;
import dev.lancet.core.transaction.LegacyTransactionBuilder;
import dev.lancet.core.transaction.OperationJson;
import dev.lancet.core.transaction.TransactionBuilder;
import dev.lancet.format.pb.TransactionProtos;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code lancet commit}: publishes an operation written as protobuf JSON. */
@Command(name = "commit",
    description = {"Commit an operation to a table. OP.json is a Transaction (a composite "
        + "operation or any of Lance's 16 legacy operations) or a bare CompositeOperation, in "
        + "protobuf JSON.",
        "Exit codes: 0 committed (prints the new version), 2 invalid input, 3 retryable "
            + "conflict still unresolved, 4 incompatible transaction, 5 commit state unknown."})
public final class CommitCommand implements Callable<Integer> {
  @Spec
  CommandSpec spec;

  @Mixin
  HelpOption help;

  @Mixin
  StorageOptionsMixin storage;

  @Parameters(index = "0", paramLabel = "TABLE", description = "The table: a directory, file:///path, s3://bucket/path or az://container/path.")
  String location;

  @Option(names = "--file", required = true, paramLabel = "OP.json", description = "The operation.")
  Path file;

  @Option(names = "--read-version", paramLabel = "N",
      description = "Plan the commit against version N, as a writer that read it (default: the "
          + "Transaction's read_version, else the latest).")
  Long readVersion;

  @Option(names = "--max-retries", paramLabel = "K", defaultValue = "20",
      description = "Retries after losing a race to concurrent commits (default: ${DEFAULT-VALUE}).")
  int maxRetries;

  @Option(names = "--json", description = "Print the result as a JSON object on stdout: "
      + "{ok: true, exitCode: 0, version, uuid, attempts} when committed, else {ok: false, "
      + "exitCode, error, message, ...} with the winner's version and operation and the "
      + "collisions for a conflict.")
  boolean json;

  @Override
  public Integer call() throws IOException {
    if (maxRetries < 0) {
      throw new CliException("--max-retries must not be negative, not " + maxRetries);
    }
    if (!Files.isRegularFile(file)) {
      throw new CliException("operation file " + file + " does not exist");
    }
    String text = Files.readString(file, StandardCharsets.UTF_8);
    TransactionProtos.Transaction txn = OperationJson.parse(text, file.toString());
    CommitResult result;
    try (Table table = Table.open(location, storage.options())) {
      long planned = readVersion != null ? readVersion
          : txn.getReadVersion() != 0 ? txn.getReadVersion() : table.latest().version();
      String uuid = txn.getUuid().isEmpty() ? UUID.randomUUID().toString() : txn.getUuid();
      if (txn.getOperationCase() == TransactionProtos.Transaction.OperationCase.COMPOSITE_OPERATION) {
        TransactionBuilder builder = table.newTransaction()
            .steps(ActionCodec.decode(txn.getCompositeOperation()))
            .readVersion(planned).uuid(uuid).maxRetries(maxRetries);
        txn.getTransactionPropertiesMap().forEach(builder::property);
        result = builder.commit();
      } else {
        // A legacy operation, committed as a Lance writer would (inline and in its .txn file).
        LegacyTransactionBuilder builder = table.newLegacyTransaction(LegacyOperationCodec.decode(txn))
            .readVersion(planned).uuid(uuid).maxRetries(maxRetries);
        txn.getTransactionPropertiesMap().forEach(builder::property);
        result = builder.commit();
      }
    }
    PrintWriter out = spec.commandLine().getOut();
    if (json) {
      ObjectNode o = CliJson.object();
      o.put("ok", true);
      o.put("exitCode", ExitCodes.OK);
      o.set("version", CliJson.unsigned(result.version()));
      o.put("uuid", result.transactionUuid());
      o.put("attempts", result.attempts());
      out.println(CliJson.print(o));
    } else {
      out.println("committed version " + result.version() + " (transaction " + result.transactionUuid()
          + ", " + result.attempts() + " attempt(s))");
    }
    out.flush();
    return ExitCodes.OK;
  }
}
