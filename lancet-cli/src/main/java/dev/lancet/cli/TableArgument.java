package dev.lancet.cli;

import dev.lancet.table.LanceTable;
import java.util.Map;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * The TABLE every table command takes first, and the storage options that reach it: one place,
 * so that every command names a table the same way (issue 13: the same URIs and keys as
 * lance-core) and none can forget the options.
 */
public final class TableArgument {
  @Parameters(index = "0", paramLabel = "TABLE",
      description = "The table: a directory, file:///path, s3://bucket/path or az://container/path.")
  String location;

  @Mixin
  StorageOptionsMixin storage;

  @Option(names = "--branch", paramLabel = "NAME", description = "The branch to read or write "
      + "(default main); see lancet branch.")
  String branch;

  /** Opens the table (at --branch) for the table API. */
  LanceTable open() {
    return branch == null ? LanceTable.open(location, storage.options())
        : LanceTable.open(location, storage.options(), branch);
  }

  String location() {
    return location;
  }

  Map<String, String> storageOptions() {
    return storage.options();
  }
}
