package dev.lancet.core.version;

import dev.lancet.core.store.NotFoundException;
import dev.lancet.core.store.ObjectStore;
import dev.lancet.core.store.ObjectTooLargeException;
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
    byte[] bytes = readManifestBytes(store, entry);
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

  /**
   * The manifest file's bytes, size-checked first: a file over the limit is refused unread, and a
   * large one has its footer checked before the rest is read ({@link ReadLimits}).
   */
  private static byte[] readManifestBytes(ObjectStore store, VersionEntry entry) throws IOException {
    long limit = ReadLimits.maxManifestBytes();
    try {
      if (entry.sizeBytes() < 0) {
        return store.get(entry.path(), limit);
      }
      if (entry.sizeBytes() > limit) {
        throw new ObjectTooLargeException(entry.path(), entry.sizeBytes(), limit);
      }
      if (entry.sizeBytes() > ReadLimits.FOOTER_FIRST_BYTES) {
        byte[] footer = store.getRange(entry.path(), entry.sizeBytes() - ManifestFile.FOOTER_SIZE,
            ManifestFile.FOOTER_SIZE);
        ManifestFile.checkFooter(footer, 0, entry.sizeBytes(), entry.path());
      }
      return store.get(entry.path());
    } catch (ObjectTooLargeException e) {
      throw new FormatException(entry.path(), "the manifest is " + e.size() + " bytes, more than "
          + "the " + e.limit() + " bytes Lancet reads (raise the limit with -Dlancet.maxManifestBytes "
          + "if the table really is that large)");
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
   * one, else the {@code _transactions/} file it names, else empty. A named file that does not
   * exist is a {@link FormatException}.
   */
  public Optional<TransactionProtos.Transaction> transaction() {
    String file = manifest().transactionFile();
    Optional<TransactionProtos.Transaction> found = readableTransaction();
    if (found.isEmpty() && contents.inlineTransaction().isEmpty() && !file.isEmpty()) {
      throw new FormatException(TransactionFile.path(file), "version " + version() + " names this "
          + "transaction file, but it does not exist");
    }
    return found;
  }

  /**
   * Like {@link #transaction()}, but a transaction file that does not exist is empty rather than
   * an error: the .txn file is advisory (decision 0007), so a crash may lose it. Bytes that are
   * not a Transaction are still a {@link FormatException}.
   */
  public Optional<TransactionProtos.Transaction> readableTransaction() {
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
      return Optional.of(TransactionFile.decode(store.get(path, ReadLimits.maxTransactionBytes()), path));
    } catch (ObjectTooLargeException e) {
      throw new FormatException(path, "the transaction file is " + e.size() + " bytes, more than "
          + "the " + e.limit() + " bytes Lancet reads (raise it with -Dlancet.maxTransactionBytes)");
    } catch (NotFoundException e) {
      return Optional.empty();
    } catch (IOException e) {
      throw new UncheckedIOException("reading " + path, e);
    }
  }
}
