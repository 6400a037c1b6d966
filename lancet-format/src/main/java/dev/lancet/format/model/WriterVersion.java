package dev.lancet.format.model;

import com.google.protobuf.UnknownFieldSet;
import java.util.Objects;
import java.util.Optional;

/** The library that wrote a manifest. {@code version} is major.minor.patch only. */
public record WriterVersion(
    String library,
    String version,
    Optional<String> prerelease,
    Optional<String> buildMetadata,
    UnknownFieldSet unknownFields) {

  /** What Lancet stamps on every manifest it writes. */
  public static final WriterVersion LANCET =
      new WriterVersion("lancet", "0.1.0", Optional.empty(), Optional.empty(),
          UnknownFieldSet.getDefaultInstance());

  public WriterVersion {
    Objects.requireNonNull(library, "library");
    Objects.requireNonNull(version, "version");
    Objects.requireNonNull(prerelease, "prerelease");
    Objects.requireNonNull(buildMetadata, "buildMetadata");
    Objects.requireNonNull(unknownFields, "unknownFields");
  }

  @Override
  public String toString() {
    return library + " " + version + prerelease.map(p -> "-" + p).orElse("")
        + buildMetadata.map(b -> "+" + b).orElse("");
  }
}
