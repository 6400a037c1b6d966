package dev.lancet.cli;

import picocli.CommandLine.Option;

/**
 * {@code -h/--help} for subcommands. They cannot use {@code mixinStandardHelpOptions}, whose
 * {@code --version} would clash with the table-version option.
 */
public final class HelpOption {
  @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help and exit.")
  boolean help;
}
