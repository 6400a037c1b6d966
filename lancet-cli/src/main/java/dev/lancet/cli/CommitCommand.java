package dev.lancet.cli;

import com.google.protobuf.Struct;
import com.google.protobuf.Value;
import dev.lancet.core.Table;
import dev.lancet.core.action.ActionCodec;
import dev.lancet.core.action.CompositeOperation;
import dev.lancet.core.commit.CommitResult;
import dev.lancet.core.transaction.OperationJson;
import dev.lancet.core.transaction.TransactionBuilder;
import dev.lancet.format.pb.TransactionProtos;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code lancet commit}: publishes an operation written as protobuf JSON. */
@Command(name = "commit",
    description = {"Commit an operation to a table. OP.json is a Transaction or a "
        + "CompositeOperation in protobuf JSON.",
        "Exit codes: 0 committed (prints the new version), 2 invalid input, 3 retryable "
            + "conflict still unresolved, 4 incompatible transaction, 5 commit state unknown."})
public final class CommitCommand implements Callable<Integer> {
  @Spec
  CommandSpec spec;

  @Mixin
  HelpOption help;

  @Parameters(index = "0", paramLabel = "TABLE", description = "The table: a directory or file:///path.")
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

  @Option(names = "--json", description = "Print the result as JSON.")
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
    if (txn.getOperationCase() != TransactionProtos.Transaction.OperationCase.COMPOSITE_OPERATION) {
      throw new CliException(file + " holds a legacy " + txn.getOperationCase().name().toLowerCase()
          + " operation; this build of Lancet commits composite operations only");
    }
    CompositeOperation op = ActionCodec.decode(txn.getCompositeOperation());
    CommitResult result;
    try (Table table = Table.open(location)) {
      TransactionBuilder builder = table.newTransaction().steps(op);
      if (readVersion != null) {
        builder.readVersion(readVersion);
      } else if (txn.getReadVersion() != 0) {
        builder.readVersion(txn.getReadVersion());
      }
      if (!txn.getUuid().isEmpty()) {
        builder.uuid(txn.getUuid());
      }
      txn.getTransactionPropertiesMap().forEach(builder::property);
      builder.maxRetries(maxRetries);
      result = builder.commit();
    }
    PrintWriter out = spec.commandLine().getOut();
    if (json) {
      out.println(ProtoJson.print(Value.newBuilder().setStructValue(Struct.newBuilder()
          .putFields("version", Value.newBuilder().setNumberValue(result.version()).build())
          .putFields("uuid", ProtoJson.string(result.transactionUuid()))
          .putFields("attempts", Value.newBuilder().setNumberValue(result.attempts()).build()))
          .build()));
    } else {
      out.println("committed version " + result.version() + " (transaction " + result.transactionUuid() + ")");
    }
    out.flush();
    return ExitCodes.OK;
  }
}
