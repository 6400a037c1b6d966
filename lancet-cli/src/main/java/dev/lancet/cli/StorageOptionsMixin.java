package dev.lancet.cli;

import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * {@code --storage-option KEY=VALUE} (repeatable) for every command that opens a table: the
 * storage options lance-core takes, with its keys ({@code aws_endpoint}, {@code aws_region},
 * {@code allow_http}, {@code azure_storage_account_name}, ...). The same keys are also read from
 * the environment ({@code AWS_ENDPOINT}, {@code AZURE_STORAGE_ACCOUNT_KEY}, ...); options given
 * here win.
 */
public final class StorageOptionsMixin {
  @Option(names = "--storage-option", paramLabel = "KEY=VALUE",
      description = "A storage option for s3:// and az:// tables, with lance-core's keys (e.g. "
          + "aws_endpoint=http://127.0.0.1:9000, aws_region=us-east-1, allow_http=true); repeatable. "
          + "Also read from the environment (AWS_*, AZURE_*); these win.")
  Map<String, String> options = new LinkedHashMap<>();

  /** The options given, in order. */
  public Map<String, String> options() {
    return options == null ? Map.of() : Map.copyOf(options);
  }
}
