package dev.lancet.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lancet.core.Table;
import dev.lancet.core.action.ActionCodec;
import dev.lancet.core.commit.CommitResult;
import dev.lancet.core.commit.PublishChecks;
import dev.lancet.core.operation.LegacyOperationCodec;
import dev.lancet.core.transaction.LegacyTransactionBuilder;
import dev.lancet.core.transaction.OperationJson;
import dev.lancet.core.transaction.TransactionBuilder;
import dev.lancet.core.transaction.WriteForm;
import dev.lancet.format.layout.BasePathPolicy;
import dev.lancet.format.pb.TransactionProtos;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.UUID;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
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
  TableArgument target;

  @Option(names = "--file", required = true, paramLabel = "OP.json", description = "The operation.")
  Path file;

  @Option(names = "--read-version", paramLabel = "N",
      description = "Plan the commit against version N, as a writer that read it (default: the "
          + "Transaction's read_version, else the latest).")
  String readVersionText;

  @Option(names = "--max-retries", paramLabel = "K", defaultValue = "20",
      description = "Retries after losing a race to concurrent commits (default: ${DEFAULT-VALUE}).")
  int maxRetries;

  @Option(names = "--json", description = "Print the result as a JSON object on stdout: "
      + "{ok: true, exitCode: 0, version, uuid, attempts} when committed, else {ok: false, "
      + "exitCode, error, message, ...} with the winner's version and operation and the "
      + "collisions for a conflict.")
  boolean json;

  @Option(names = "--allow-base", paramLabel = "LOCATION",
      description = "Allow the operation to register base paths at or below LOCATION (repeatable; "
          + "'*' allows any). Base paths make readers read files outside the table, so none is "
          + "allowed by default.")
  java.util.List<String> allowedBases = new java.util.ArrayList<>();

  @Option(names = "--no-verify-files",
      description = "Do not look up the files the operation adds before committing (for a writer "
          + "that has just written and checked them itself). By default each new data, deletion "
          + "and index file must exist with its recorded size.")
  boolean noVerifyFiles;

  @Option(names = "--write-form", paramLabel = "FORM",
      description = "How a composite operation is written: 'composite', or 'legacy_when_exact' (as "
          + "the one legacy operation that expresses it exactly, where there is one, so lance-core "
          + "writers can check against it). Default: the table's config key lancet.write_form, "
          + "else legacy_when_exact (docs/decisions/0023). A legacy operation is always written "
          + "as itself.")
  String writeFormText;

  @Option(names = "--max-file-bytes", paramLabel = "BYTES", defaultValue = "33554432",
      description = "The largest operation file read (default: ${DEFAULT-VALUE}, 32 MiB).")
  long maxFileBytes;

  @Override
  public Integer call() throws IOException {
    if (maxRetries < 0) {
      throw new CliException("--max-retries must not be negative, not " + maxRetries);
    }
    Long readVersion = readVersionText == null ? null : parseReadVersion(readVersionText);
    String text = OperationFiles.read(file, maxFileBytes);
    TransactionProtos.Transaction txn = OperationJson.parse(text, file.toString());
    PublishChecks checks = PublishChecks.DEFAULT.withVerifyNewFiles(!noVerifyFiles)
        .withBasePaths(allowedBases.contains("*") ? BasePathPolicy.allowAll()
            : BasePathPolicy.allowUnder(allowedBases));
    java.util.Optional<WriteForm> form = java.util.Optional.empty();
    if (writeFormText != null) {
      try {
        form = java.util.Optional.of(WriteForm.parse(writeFormText));
      } catch (dev.lancet.core.operation.InvalidOperationException e) {
        throw new CliException("--write-form must be 'composite' or 'legacy_when_exact', not '"
            + dev.lancet.format.Texts.bounded(writeFormText, 40) + "'");
      }
    }
    CommitResult result;
    String written;
    try (Table table = Table.open(target.location(), target.storageOptions())) {
      long planned = readVersion != null ? readVersion
          : txn.getReadVersion() != 0 ? txn.getReadVersion() : table.latest().version();
      String uuid = txn.getUuid().isEmpty() ? UUID.randomUUID().toString() : txn.getUuid();
      if (txn.getOperationCase() == TransactionProtos.Transaction.OperationCase.COMPOSITE_OPERATION) {
        TransactionBuilder builder = table.newTransaction()
            .steps(ActionCodec.decode(txn.getCompositeOperation()))
            .readVersion(planned).uuid(uuid).maxRetries(maxRetries).checks(checks);
        txn.getTransactionPropertiesMap().forEach(builder::property);
        if (form.isPresent()) {
          builder.writeForm(form.get());
        } else {
          builder.tableWriteForm();
        }
        result = builder.commit();
        written = builder.committedForm().orElse("CompositeOperation");
      } else {
        // A legacy operation, committed as a Lance writer would (inline and in its .txn file).
        LegacyTransactionBuilder builder = table.newLegacyTransaction(LegacyOperationCodec.decode(txn))
            .readVersion(planned).uuid(uuid).maxRetries(maxRetries).checks(checks);
        txn.getTransactionPropertiesMap().forEach(builder::property);
        result = builder.commit();
        written = builder.operation().operationName();
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
      o.put("writtenAs", written);
      out.println(CliJson.print(o));
    } else {
      out.println("committed version " + result.version() + " (transaction " + result.transactionUuid()
          + ", " + result.attempts() + " attempt(s), written as " + written + ")");
    }
    out.flush();
    return ExitCodes.OK;
  }

  /** A version number: 1 or more, below 2^63 (versions are unsigned 64-bit; no table gets that far). */
  private static long parseReadVersion(String text) {
    long v;
    try {
      v = text.startsWith("-") ? Long.parseLong(text) : Long.parseUnsignedLong(text);
    } catch (NumberFormatException e) {
      throw new CliException("--read-version must be a version number (1 or more), not '"
          + dev.lancet.format.Texts.bounded(text, 40) + "'");
    }
    if (v < 1) {
      throw new CliException("--read-version must be a version number (1 or more), not "
          + Long.toUnsignedString(v) + (v < 0 ? " (" + v + " read as unsigned)" : ""));
    }
    return v;
  }
}
