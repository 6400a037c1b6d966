package dev.lancet.demo;

import dev.lancet.core.Table;
import dev.lancet.core.store.ObjectStore;
import dev.lancet.core.store.ObjectStores;
import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;

/**
 * Where the demo table lives: a local directory, or any location the kernel's stores serve
 * ({@code s3://bucket/path}, {@code az://container/path}) with lance-core's storage options.
 * The same URI and options go to Lancet ({@link #open()}, {@link #store()}) and to lance-core
 * (data files, reads).
 */
public record DemoLocation(String uri, Map<String, String> storageOptions) {
  public DemoLocation {
    Objects.requireNonNull(uri, "uri");
    storageOptions = Map.copyOf(storageOptions);
  }

  /** A local directory. */
  public static DemoLocation local(Path dir) {
    return new DemoLocation(dir.toAbsolutePath().toString(), Map.of());
  }

  /** Whether this is a local directory (no URI scheme). */
  public boolean isLocal() {
    return !uri.contains("://") || uri.startsWith("file://");
  }

  public Table open() {
    return Table.open(uri, storageOptions);
  }

  public ObjectStore store() {
    return ObjectStores.forUri(uri, storageOptions);
  }

  /** The URI (or local path) of a file under the table root, e.g. {@code data/x.lance}. */
  public String file(String relative) {
    return isLocal() ? Path.of(uri).resolve(relative).toString() : uri.replaceAll("/+$", "") + "/" + relative;
  }

  @Override
  public String toString() {
    return uri;
  }
}
