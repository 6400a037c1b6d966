package dev.lancet.core.version;

import dev.lancet.core.store.NotFoundException;
import dev.lancet.core.store.ObjectStore;
import dev.lancet.format.FormatException;
import dev.lancet.format.layout.ManifestFile;
import dev.lancet.format.layout.ManifestValidator;
import dev.lancet.format.layout.TransactionFile;
import dev.lancet.format.model.FeatureFlags;
import dev.lancet.format.model.IndexSegment;
import dev.lancet.format.model.Manifest;
import dev.lancet.format.pb.TransactionProtos;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Optional;

/**
 * One version of a table, loaded: its manifest (decoded and validated), and on demand its
 * index segments and the transaction that created it.
 */
public final class Snapshot {
  private final ObjectStore store;
  private final VersionEntry entry;
  private final ManifestFile.Contents contents;

  private Snapshot(ObjectStore store, VersionEntry entry, ManifestFile.Contents contents) {
    this.store = store;
    this.entry = entry;
    this.contents = contents;
  }

  /** The newest version of the table at {@code location}; an error when it has none. */
  public static Snapshot latest(ObjectStore store, String location) throws IOException {
    Optional<VersionEntry> entry = Versions.latest(store);
    if (entry.isEmpty()) {
      throw new VersionNotFoundException("no Lance table at " + location + ": it has no versions in _versions/");
    }
    return load(store, entry.get());
  }

  /** Reads, decodes and validates the manifest of {@code entry}. */
  public static Snapshot load(ObjectStore store, VersionEntry entry) throws IOException {
    byte[] bytes = store.get(entry.path());
    ManifestFile.Contents contents = ManifestFile.read(bytes, entry.path());
    Manifest m = contents.manifest();
    if (m.version() != entry.version()) {
      throw new FormatException(entry.path(), "the manifest says version " + m.version()
          + " but its file name says " + entry.version());
    }
    long unknown = FeatureFlags.unknownBits(m.readerFeatureFlags(), FeatureFlags.KNOWN_READER);
    if (unknown != 0) {
      throw new UnsupportedFeatureException(entry.path() + ": reader feature flags 0x"
          + Long.toHexString(unknown) + " are not implemented by this Lancet; a newer Lance "
          + "wrote this version. Upgrade Lancet to read it.");
    }
    ManifestValidator.validate(m, entry.path());
    return new Snapshot(store, entry, contents);
  }

  /**
   * Refuses to build on this version when its writer feature flags hold a bit this build does
   * not implement (a newer writer's requirement on every later writer): Lancet would otherwise
   * drop the bit when it derives the next version's flags, and the fence with it.
   */
  public void requireWritable() {
    long unknown = FeatureFlags.unknownBits(manifest().writerFeatureFlags(), FeatureFlags.KNOWN_WRITER);
    if (unknown != 0) {
      throw new UnsupportedFeatureException(entry.path() + ": writer feature flags 0x" + Long.toHexString(unknown)
          + " are not implemented by this Lancet; a newer Lance wrote this version and requires every "
          + "writer to understand them. Nothing was written; upgrade Lancet to write to this table.");
    }
  }

  public long version() {
    return entry.version();
  }

  public VersionEntry entry() {
    return entry;
  }

  public Manifest manifest() {
    return contents.manifest();
  }

  public List<IndexSegment> indices() {
    return contents.indices();
  }

  /**
   * The transaction that produced this version: the inline copy when the manifest file has
   * one, else the {@code _transactions/} file it names, else empty.
   */
  public Optional<TransactionProtos.Transaction> transaction() {
    Optional<TransactionProtos.Transaction> inline = contents.inlineTransaction();
    if (inline.isPresent()) {
      return inline;
    }
    String file = manifest().transactionFile();
    if (file.isEmpty()) {
      return Optional.empty();
    }
    String path = TransactionFile.path(file);
    try {
      return Optional.of(TransactionFile.decode(store.get(path), path));
    } catch (NotFoundException e) {
      throw new FormatException(path, "version " + version() + " names this transaction file, "
          + "but it does not exist");
    } catch (IOException e) {
      throw new UncheckedIOException("reading " + path, e);
    }
  }
}
