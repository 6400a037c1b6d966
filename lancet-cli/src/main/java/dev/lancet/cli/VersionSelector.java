package dev.lancet.cli;

import dev.lancet.core.Table;
import dev.lancet.core.version.Snapshot;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code --version N | --tag NAME}: which version of a table a command reads (default latest). */
public final class VersionSelector {
  @Spec(Spec.Target.MIXEE)
  CommandSpec mixee;

  @Option(names = "--version", paramLabel = "N",
      description = "Read this version (default: the latest).")
  Long version;

  @Option(names = "--tag", paramLabel = "NAME", description = "Read the version this tag points at.")
  String tag;

  /** Loads the selected version; a missing version or tag is a {@code VersionNotFoundException}. */
  public Snapshot select(Table table) {
    validate();
    if (version != null) {
      return table.version(version);
    }
    if (tag != null) {
      return table.tag(tag);
    }
    return table.latest();
  }

  /** Rejects option combinations picocli cannot express by itself. */
  void validate() {
    if (version != null && tag != null) {
      throw new ParameterException(mixee.commandLine(),
          "--version and --tag both select a version; give only one");
    }
    if (version != null && version < 0) {
      throw new ParameterException(mixee.commandLine(),
          "--version must be a version number (1 or more), not " + version);
    }
  }
}
