package dev.lancet.bench;

import dev.lancet.core.store.AlreadyExistsException;
import dev.lancet.core.store.LocalObjectStore;
import dev.lancet.core.store.ObjectInfo;
import dev.lancet.core.store.ObjectStore;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.UUID;

/**
 * DIAGNOSTIC ONLY, never for real tables: {@link LocalObjectStore}'s reads, and the same
 * publish steps for writes (temporary file, then rename for put and hard link for put-if-absent)
 * but without any fsync. That is what lance-core 7.0.0's local object store does (it never
 * syncs), so commits through this store show how much of Lancet's commit time is its durability
 * (file and directory fsyncs) rather than its own work.
 */
final class NoSyncLocalStore implements ObjectStore {
  private static final String TEMP_PREFIX = ".tmp-nosync-";
  private final LocalObjectStore reads;
  private final Path root;

  NoSyncLocalStore(Path root) {
    this.root = root.toAbsolutePath().normalize();
    this.reads = new LocalObjectStore(this.root);
  }

  @Override
  public byte[] get(String path) throws IOException {
    return reads.get(path);
  }

  @Override
  public byte[] getRange(String path, long offset, int length) throws IOException {
    return reads.getRange(path, offset, length);
  }

  @Override
  public long size(String path) throws IOException {
    return reads.size(path);
  }

  @Override
  public boolean exists(String path) throws IOException {
    return reads.exists(path);
  }

  @Override
  public void put(String path, byte[] data) throws IOException {
    Path file = target(path);
    Path temp = file.resolveSibling(TEMP_PREFIX + UUID.randomUUID());
    Files.write(temp, data);
    Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
  }

  @Override
  public void putIfAbsent(String path, byte[] data) throws IOException {
    Path file = target(path);
    Path temp = file.resolveSibling(TEMP_PREFIX + UUID.randomUUID());
    Files.write(temp, data);
    try {
      Files.createLink(file, temp);
    } catch (FileAlreadyExistsException e) {
      throw new AlreadyExistsException(path, e);
    } finally {
      Files.deleteIfExists(temp);
    }
  }

  @Override
  public List<ObjectInfo> list(String prefix) throws IOException {
    return reads.list(prefix);
  }

  @Override
  public void delete(String path) throws IOException {
    reads.delete(path);
  }

  private Path target(String path) throws IOException {
    reads.exists(path); // validates the path the same way
    Path file = root.resolve(path).normalize();
    Files.createDirectories(file.getParent());
    return file;
  }
}
