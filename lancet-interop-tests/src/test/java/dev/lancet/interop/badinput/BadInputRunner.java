package dev.lancet.interop.badinput;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.google.protobuf.util.JsonFormat;
import dev.lancet.cli.Main;
import dev.lancet.core.Table;
import dev.lancet.core.action.ActionCodec;
import dev.lancet.core.commit.PublishChecks;
import dev.lancet.core.operation.LegacyOperationCodec;
import dev.lancet.format.layout.BasePathPolicy;
import dev.lancet.format.pb.TransactionProtos;
import dev.lancet.interop.badinput.BadInput.CommandLine;
import dev.lancet.interop.badinput.BadInput.Composite;
import dev.lancet.interop.badinput.BadInput.Legacy;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * Submits a bad input through the Java API or {@code lancet commit} and checks how it ends: the
 * typed error (or exit code) it must end in, one line naming the thing at fault, nothing written,
 * and the table read as before by Lancet and lance-core 7.0.0.
 */
final class BadInputRunner {
  /** Longest message accepted: one readable line, whatever the input quoted. */
  static final int MAX_MESSAGE = 2_200;

  private BadInputRunner() {}

  /** Through the Java API (TransactionBuilder / LegacyTransactionBuilder). */
  static void throughTheApi(BadInputTable table, BadInput c, long beforeDamage) {
    BadInputTable.State before = table.state();
    Throwable e;
    try (Table t = Table.open(table.dir.toString())) {
      e = catchThrowable(() -> submit(t, c.submission(), beforeDamage));
    }
    assertThat(e).as("%s (API)", c).isNotNull().isInstanceOf(c.expect().type());
    assertThat(e.getMessage()).as("%s (API): the message names what is wrong", c).contains(c.expect().text());
    assertThat(e.getMessage()).as("%s (API): one line", c).doesNotContain("\n");
    assertThat(e.getMessage().length()).as("%s (API): a bounded message", c).isLessThan(MAX_MESSAGE);
    table.assertUntouched(before, c + " (API)");
  }

  /** Through {@code lancet commit} (in-process, captured output). */
  static void throughTheCommandLine(BadInputTable table, BadInput c, long beforeDamage, Path scratch) throws Exception {
    Path dir = Files.createDirectories(scratch.resolve(UUID.randomUUID().toString()));
    List<String> args = new ArrayList<>(List.of("commit", table.dir.toString(), "--file"));
    if (c.submission() instanceof CommandLine cli) {
      args.add(cli.operationFile().apply(dir).toString());
      args.addAll(cli.arguments());
    } else {
      Path file = dir.resolve("op.json");
      Files.writeString(file, JsonFormat.printer().print(transaction(c.submission(), beforeDamage)));
      args.add(file.toString());
      if (allowBases(c.submission())) {
        args.add("--allow-base");
        args.add("*");
      }
    }
    BadInputTable.State before = table.state();
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = Main.commandLine(new PrintWriter(out, true), new PrintWriter(err, true)).execute(args.toArray(String[]::new));
    String message = err.toString().strip();
    assertThat(code).as("%s (CLI): exit code; stderr: %s", c, message).isEqualTo(c.expect().exitCode());
    assertThat(message).as("%s (CLI): the message names what is wrong", c).contains(c.expect().text());
    assertThat(message.lines().count()).as("%s (CLI): one line", c).isEqualTo(1);
    assertThat(message.length()).as("%s (CLI): a bounded message", c).isLessThan(MAX_MESSAGE);
    assertThat(out.toString()).as("%s (CLI): nothing printed as committed", c).doesNotContain("committed version");
    table.assertUntouched(before, c + " (CLI)");
  }

  private static void submit(Table t, BadInput.Submission s, long beforeDamage) {
    PublishChecks checks = allowBases(s) ? PublishChecks.DEFAULT.withBasePaths(BasePathPolicy.allowAll())
        : PublishChecks.DEFAULT;
    if (s instanceof Composite c) {
      var b = t.newTransaction().steps(c.op()).checks(checks);
      long rv = readVersion(c.readVersion(), beforeDamage);
      if (rv != BadInput.LATEST) {
        b.readVersion(rv);
      }
      b.commit();
    } else if (s instanceof Legacy l) {
      var b = t.newLegacyTransaction(l.op()).checks(checks);
      long rv = readVersion(l.readVersion(), beforeDamage);
      if (rv != BadInput.LATEST) {
        b.readVersion(rv);
      }
      b.commit();
    } else {
      throw new IllegalArgumentException("a command-line case has no API form: " + s);
    }
  }

  /** The Transaction a writer would hand {@code lancet commit} for {@code s}. */
  static TransactionProtos.Transaction transaction(BadInput.Submission s, long beforeDamage) {
    TransactionProtos.Transaction.Builder txn;
    long rv;
    if (s instanceof Composite c) {
      txn = TransactionProtos.Transaction.newBuilder().setCompositeOperation(ActionCodec.encode(c.op()));
      rv = readVersion(c.readVersion(), beforeDamage);
    } else {
      Legacy l = (Legacy) s;
      txn = LegacyOperationCodec.encode(l.op());
      rv = readVersion(l.readVersion(), beforeDamage);
    }
    return txn.setReadVersion(rv).setUuid(UUID.randomUUID().toString()).build();
  }

  private static long readVersion(long declared, long beforeDamage) {
    return declared == BadInput.BEFORE_DAMAGE ? beforeDamage : declared;
  }

  private static boolean allowBases(BadInput.Submission s) {
    return (s instanceof Composite c && c.allowBases()) || (s instanceof Legacy l && l.allowBases());
  }
}
