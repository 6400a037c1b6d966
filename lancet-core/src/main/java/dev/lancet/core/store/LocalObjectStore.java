package dev.lancet.core.store;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.UUID;

/**
 * An {@link ObjectStore} on a local (or locally mounted) filesystem, rooted at a table directory.
 *
 * <p>Writes never expose a torn file: the bytes go to a uniquely named temporary file in the
 * target's directory (named with {@link StorePath#TEMP_PREFIX}, so {@link #list} skips it), are
 * fsynced, and are then published in one atomic step: a rename for {@link #put}, a hard link for
 * {@link #putIfAbsent}. Publishing in the target's own directory keeps the step on one
 * filesystem, where rename and link are atomic. After publishing, the directory is fsynced so the
 * new entry survives a crash.
 *
 * <p>{@link #putIfAbsent} requires hard-link support. Java offers no other atomic create-only
 * publish of a complete file: creating the target with {@code CREATE_NEW} and then writing it
 * exposes a torn file, and a rename silently replaces an existing target on POSIX. So on a
 * filesystem without hard links, {@link #putIfAbsent} fails with a clear error rather than
 * weakening the commit protocol.
 *
 * <p>{@link Durability#SYNC} (the default) fsyncs as described, so an acknowledged commit
 * survives a power failure. {@link Durability#NONE} keeps every publish atomic but skips the
 * fsyncs, as Lance's own local object store does: faster, and a crash of the machine (not of the
 * process) may lose the newest versions. {@link #putAdvisory} never fsyncs. {@link #makeDurable}
 * fsyncs a file another writer put in the table (a data file lance-core wrote) the same way.
 *
 * <p>Parent directories are created on demand; the root itself need not exist until the first
 * write. A crash can leave temporary files behind; they are invisible to {@link #list} and can be
 * removed at any time by a cleanup task.
 */
public final class LocalObjectStore implements ObjectStore {

  /** Whether writes are made durable against a machine crash before they return. */
  public enum Durability {
    /** Fsync each file before publishing it and its directory after (the default). */
    SYNC,
    /** Publish atomically without fsync, as Lance's local store does. */
    NONE
  }

  private final Path root;
  private final Durability durability;
  // The root with symbolic links resolved, once it exists (writes are checked to stay below it).
  private volatile Path realRoot;

  /**
   * Creates a store rooted at {@code root} (made absolute and normalized).
   *
   * @throws IllegalArgumentException if {@code root} exists and is not a directory
   */
  public LocalObjectStore(Path root) {
    this(root, Durability.SYNC);
  }

  /** A store rooted at {@code root} with the given durability. */
  public LocalObjectStore(Path root, Durability durability) {
    this.durability = Objects.requireNonNull(durability, "durability");
    this.root = Objects.requireNonNull(root, "root").toAbsolutePath().normalize();
    if (Files.exists(this.root) && !Files.isDirectory(this.root)) {
      throw new IllegalArgumentException("Table root " + this.root + " exists but is not a directory");
    }
  }

  /** The absolute table root. */
  public Path root() {
    return root;
  }

  @Override
  public byte[] get(String path) throws IOException {
    Path file = resolve(path);
    try (FileChannel channel = openForRead(path, file)) {
      long size = channel.size();
      if (size > Integer.MAX_VALUE - 8) {
        throw new IOException("Object " + path + " is too large to read whole (" + size + " bytes); use getRange");
      }
      return readFully(path, channel, 0, (int) size);
    }
  }

  @Override
  public byte[] get(String path, long maxBytes) throws IOException {
    Path file = resolve(path);
    try (FileChannel channel = openForRead(path, file)) {
      long size = channel.size();
      if (size > maxBytes) {
        throw new ObjectTooLargeException(path, size, maxBytes);
      }
      if (size > Integer.MAX_VALUE - 8) {
        throw new IOException("Object " + path + " is too large to read whole (" + size + " bytes); use getRange");
      }
      return readFully(path, channel, 0, (int) size);
    }
  }

  @Override
  public byte[] getRange(String path, long offset, int length) throws IOException {
    Path file = resolve(path);
    Ranges.checkArguments(path, offset, length);
    try (FileChannel channel = openForRead(path, file)) {
      Ranges.checkWithinSize(path, offset, length, channel.size());
      return readFully(path, channel, offset, length);
    }
  }

  @Override
  public long size(String path) throws IOException {
    Path file = resolve(path);
    try {
      BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class);
      if (!attributes.isRegularFile()) {
        throw new NotFoundException(path);
      }
      return attributes.size();
    } catch (NotFoundException e) {
      throw e;
    } catch (IOException e) {
      throw notFoundIfAbsent(path, file, e);
    }
  }

  @Override
  public boolean exists(String path) {
    return Files.isRegularFile(resolve(path));
  }

  @Override
  public void put(String path, byte[] data) throws IOException {
    replace(path, data, durability == Durability.SYNC);
  }

  /** Like {@link #put}, atomic, but never fsynced: losing it in a machine crash is harmless. */
  @Override
  public void putAdvisory(String path, byte[] data) throws IOException {
    replace(path, data, false);
  }

  private void replace(String path, byte[] data, boolean sync) throws IOException {
    Path file = resolve(path);
    Objects.requireNonNull(data, "data");
    Path directory = createDirectoriesInside(path, file.getParent());
    Path temp = writeTemporary(directory, data, sync);
    try {
      // On POSIX this is rename(2), which replaces the target atomically; REPLACE_EXISTING makes
      // the same true on Windows.
      Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (IOException | RuntimeException e) {
      deleteQuietly(temp);
      throw e;
    }
    if (sync) {
      syncDirectory(directory);
    }
  }

  /**
   * Streams into a temporary file in the target's directory (invisible to {@link #list}, removed
   * by cleanup if the writer dies) and renames it into place on completion, fsyncing file and
   * directory first under {@link Durability#SYNC}, as {@link #put} does.
   */
  @Override
  public ObjectOutput newOutput(String path) throws IOException {
    Path file = resolve(path);
    Path directory = createDirectoriesInside(path, file.getParent());
    Path temp = directory.resolve(StorePath.TEMP_PREFIX + UUID.randomUUID());
    FileChannel channel = FileChannel.open(temp, StandardOpenOption.CREATE_NEW,
        StandardOpenOption.WRITE);
    return new LocalOutput(path, file, temp, channel, durability == Durability.SYNC);
  }

  /** A file written in a temporary name and renamed into place. */
  private static final class LocalOutput implements ObjectOutput {
    private final String path;
    private final Path file;
    private final Path temp;
    private final boolean sync;
    private FileChannel channel;
    private long position;
    private boolean completed;

    LocalOutput(String path, Path file, Path temp, FileChannel channel, boolean sync) {
      this.path = path;
      this.file = file;
      this.temp = temp;
      this.channel = channel;
      this.sync = sync;
    }

    @Override
    public void write(ByteBuffer bytes) throws IOException {
      ensureOpen();
      while (bytes.hasRemaining()) {
        position += channel.write(bytes);
      }
    }

    @Override
    public long position() {
      return position;
    }

    @Override
    public void complete() throws IOException {
      ensureOpen();
      try {
        if (sync) {
          channel.force(true);
        }
        channel.close();
        channel = null;
        Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE,
            StandardCopyOption.REPLACE_EXISTING);
      } catch (IOException | RuntimeException e) {
        abort();
        throw e;
      }
      completed = true;
      if (sync) {
        syncDirectory(file.getParent());
      }
    }

    @Override
    public void abort() {
      if (channel != null) {
        try {
          channel.close();
        } catch (IOException e) {
          // the temporary file is deleted below all the same
        }
        channel = null;
      }
      if (!completed) {
        deleteQuietly(temp);
      }
    }

    @Override
    public void close() {
      if (!completed) {
        abort();
      }
    }

    private void ensureOpen() {
      if (channel == null) {
        throw new IllegalStateException("the output of " + path + " is "
            + (completed ? "complete" : "aborted") + " and takes no more bytes");
      }
    }
  }

  @Override
  public List<StoredObject> walk(String prefix) throws IOException {
    String directoryPrefix = StorePath.validatePrefix(prefix);
    Path start = directoryPrefix.isEmpty() ? root : resolve(directoryPrefix.substring(0, directoryPrefix.length() - 1));
    List<StoredObject> out = new ArrayList<>();
    if (!Files.isDirectory(start)) {
      return List.of();
    }
    Files.walkFileTree(start, new java.nio.file.SimpleFileVisitor<>() {
      @Override
      public java.nio.file.FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
        if (attrs.isRegularFile()) {
          String rel = root.relativize(file).toString().replace(java.io.File.separatorChar, '/');
          out.add(new StoredObject(rel, attrs.size(), attrs.lastModifiedTime().toInstant(),
              StorePath.isTemporaryName(file.getFileName().toString())));
        }
        return java.nio.file.FileVisitResult.CONTINUE;
      }

      @Override
      public java.nio.file.FileVisitResult visitFileFailed(Path file, IOException e) {
        return java.nio.file.FileVisitResult.CONTINUE; // deleted while walking
      }
    });
    out.sort(Comparator.comparing(StoredObject::path));
    return List.copyOf(out);
  }

  @Override
  public void deleteTemporary(String path) throws IOException {
    int slash = path.lastIndexOf('/');
    String name = path.substring(slash + 1);
    if (!StorePath.isTemporaryName(name)) {
      throw new InvalidStorePathException(path, "not a temporary file name");
    }
    Path dir = slash < 0 ? root : resolve(StorePath.validate(path.substring(0, slash)));
    Files.deleteIfExists(dir.resolve(name));
  }

  @Override
  public void putIfAbsent(String path, byte[] data) throws IOException {
    Path file = resolve(path);
    Objects.requireNonNull(data, "data");
    Path directory = createDirectoriesInside(path, file.getParent());
    boolean sync = durability == Durability.SYNC;
    Path temp = writeTemporary(directory, data, sync);
    try {
      // link(2) creates the name only if it is free, and the name points at complete, synced
      // bytes from the first instant it exists: exactly one of any number of racers wins.
      Files.createLink(file, temp);
    } catch (FileAlreadyExistsException e) {
      throw new AlreadyExistsException(path, e);
    } catch (UnsupportedOperationException e) {
      throw new IOException(hardLinkRequired(path), e);
    } catch (IOException e) {
      if (Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
        throw new AlreadyExistsException(path, e);
      }
      throw new IOException(hardLinkRequired(path) + ": " + e, e);
    } finally {
      // The published name is a second link to the same bytes; dropping the temporary name
      // leaves the object intact. A failure here only leaves an invisible temporary file.
      deleteQuietly(temp);
    }
    if (sync) {
      syncDirectory(directory);
    }
  }

  /**
   * Under {@link Durability#SYNC}, fsyncs the file and then its directory (so the name survives
   * a crash too); under {@link Durability#NONE} only checks that the object exists.
   */
  @Override
  public void makeDurable(String path) throws IOException {
    Path file = resolve(path);
    try (FileChannel channel = openForRead(path, file)) {
      if (durability == Durability.SYNC) {
        channel.force(true);
      }
    }
    if (durability == Durability.SYNC) {
      syncDirectory(file.getParent());
    }
  }

  @Override
  public List<ObjectInfo> list(String prefix) throws IOException {
    String directoryPrefix = StorePath.validatePrefix(prefix);
    Path directory = directoryPrefix.isEmpty() ? root : resolve(directoryPrefix.substring(0, directoryPrefix.length() - 1));
    List<ObjectInfo> objects = new ArrayList<>();
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(directory)) {
      for (Path entry : entries) {
        String name = entry.getFileName().toString();
        if (StorePath.isTemporaryName(name) || !isValidName(name)) {
          continue;
        }
        BasicFileAttributes attributes;
        try {
          attributes = Files.readAttributes(entry, BasicFileAttributes.class);
        } catch (NoSuchFileException e) {
          continue; // deleted while we were listing
        }
        if (attributes.isRegularFile()) {
          objects.add(new ObjectInfo(directoryPrefix + name, attributes.size()));
        }
      }
    } catch (NoSuchFileException | NotDirectoryException e) {
      return List.of();
    }
    objects.sort(Comparator.comparing(ObjectInfo::path));
    return List.copyOf(objects);
  }

  @Override
  public void delete(String path) throws IOException {
    Path file = resolve(path);
    if (Files.isDirectory(file, LinkOption.NOFOLLOW_LINKS)) {
      return; // a directory is not an object, so there is no object to delete
    }
    try {
      Files.deleteIfExists(file);
    } catch (IOException e) {
      if (Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
        throw e;
      }
      // For example a parent that is a regular file: the object cannot exist, so it is deleted.
    }
  }

  @Override
  public String toString() {
    return "LocalObjectStore[" + root + "]";
  }

  /**
   * Creates {@code directory} (a directory under the root) if needed and returns it, refusing to
   * write through a symbolic link that leads out of the table: a {@code _transactions/} that is a
   * link to {@code /etc} would otherwise receive every .txn file. The deepest existing ancestor is
   * resolved before anything is created, so no directory is made outside the table either.
   */
  private Path createDirectoriesInside(String path, Path directory) throws IOException {
    Path existing = directory;
    while (!existing.equals(root) && !Files.isDirectory(existing, LinkOption.NOFOLLOW_LINKS)) {
      if (Files.isSymbolicLink(existing)) {
        break;
      }
      existing = existing.getParent();
    }
    if (!existing.equals(root) || Files.exists(root)) {
      requireInsideRoot(path, existing);
    }
    try {
      Files.createDirectories(directory);
    } catch (FileAlreadyExistsException e) {
      // A regular file where a directory of the path must be: no retry makes it a directory.
      throw new NotDirectoryException(e.getFile() + " is a file, so " + path + " cannot be written under it");
    }
    if (!existing.equals(directory)) {
      requireInsideRoot(path, directory);
    }
    return directory;
  }

  private void requireInsideRoot(String path, Path directory) throws IOException {
    Path rootReal = realRoot();
    Path real;
    try {
      real = directory.toRealPath();
    } catch (NoSuchFileException e) {
      // A dangling link: nothing can be written there, and nothing is created.
      throw new InvalidStorePathException(path, "its directory " + root.relativize(directory)
          + " is a symbolic link to a location that does not exist; Lancet does not write through links");
    }
    if (!real.startsWith(rootReal)) {
      throw new InvalidStorePathException(path, "its directory " + root.relativize(directory)
          + " resolves to " + real + ", outside the table root " + rootReal + " (through a symbolic "
          + "link); Lancet does not write outside the table");
    }
  }

  private Path realRoot() throws IOException {
    Path r = realRoot;
    if (r == null) {
      Files.createDirectories(root);
      r = root.toRealPath();
      realRoot = r;
    }
    return r;
  }

  /** Validates a store path and maps it under the root, refusing anything that lands outside. */
  private Path resolve(String path) {
    StorePath.validate(path);
    Path file = root.resolve(path).normalize();
    // StorePath already rules out escapes; this second check guards against platform quirks.
    if (!file.startsWith(root) || file.equals(root)) {
      throw new InvalidStorePathException(path, "resolves outside the table root " + root);
    }
    return file;
  }

  private static FileChannel openForRead(String path, Path file) throws IOException {
    try {
      // Opening a directory for reading succeeds on Linux, so check what the path is first.
      if (!Files.readAttributes(file, BasicFileAttributes.class).isRegularFile()) {
        throw new NotFoundException(path);
      }
      return FileChannel.open(file, StandardOpenOption.READ);
    } catch (NotFoundException e) {
      throw e;
    } catch (IOException e) {
      throw notFoundIfAbsent(path, file, e);
    }
  }

  /** Maps any failure on a path that does not exist (missing file, parent that is a file) to NotFound. */
  private static IOException notFoundIfAbsent(String path, Path file, IOException e) {
    if (e instanceof NoSuchFileException || !Files.exists(file)) {
      return new NotFoundException(path, e);
    }
    return e;
  }

  private static byte[] readFully(String path, FileChannel channel, long offset, int length) throws IOException {
    byte[] bytes = new byte[length];
    ByteBuffer buffer = ByteBuffer.wrap(bytes);
    long position = offset;
    while (buffer.hasRemaining()) {
      int read = channel.read(buffer, position);
      if (read < 0) {
        throw new EOFException("Object " + path + " ended at byte " + position + " while reading " + length + " bytes from offset " + offset);
      }
      position += read;
    }
    return bytes;
  }

  private static Path writeTemporary(Path directory, byte[] data, boolean sync) throws IOException {
    Path temp = directory.resolve(StorePath.TEMP_PREFIX + UUID.randomUUID());
    try (FileChannel channel = FileChannel.open(temp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
      ByteBuffer buffer = ByteBuffer.wrap(data);
      while (buffer.hasRemaining()) {
        channel.write(buffer);
      }
      // The bytes must be durable before any name points at them, or a crash could publish garbage.
      if (sync) {
        channel.force(true);
      }
    } catch (IOException | RuntimeException e) {
      deleteQuietly(temp);
      throw e;
    }
    return temp;
  }

  /** Makes a new or replaced directory entry durable. Best effort: not every platform allows it. */
  private static void syncDirectory(Path directory) {
    try (FileChannel channel = FileChannel.open(directory, StandardOpenOption.READ)) {
      channel.force(true);
    } catch (IOException e) {
      // Windows cannot open a directory as a channel; the publish itself was still atomic.
    }
  }

  private static void deleteQuietly(Path temp) {
    try {
      Files.deleteIfExists(temp);
    } catch (IOException e) {
      // Leaves an invisible temporary file; harmless, and the original error matters more.
    }
  }

  private static boolean isValidName(String name) {
    try {
      StorePath.validate(name);
      return true;
    } catch (InvalidStorePathException e) {
      return false; // a file our paths cannot name (e.g. with a backslash) is not an object to us
    }
  }

  private static String hardLinkRequired(String path) {
    return "Cannot create " + path + " atomically: put-if-absent publishes with a hard link, which the"
        + " filesystem holding the table refused (it must support hard links)";
  }
}
