package dev.lancet.store.azure;

import com.azure.core.http.rest.PagedResponse;
import com.azure.core.util.BinaryData;
import com.azure.core.util.Context;
import com.azure.storage.blob.BlobContainerClient;
import com.azure.storage.blob.BlobServiceClient;
import com.azure.storage.blob.BlobServiceClientBuilder;
import com.azure.storage.blob.models.BlobErrorCode;
import com.azure.storage.blob.models.BlobItem;
import com.azure.storage.blob.models.BlobRange;
import com.azure.storage.blob.models.BlobRequestConditions;
import com.azure.storage.blob.models.BlobStorageException;
import com.azure.storage.blob.models.ListBlobsOptions;
import com.azure.storage.blob.models.ParallelTransferOptions;
import com.azure.storage.blob.options.BlobInputStreamOptions;
import com.azure.storage.blob.options.BlobParallelUploadOptions;
import com.azure.storage.blob.specialized.BlobInputStream;
import com.azure.storage.blob.specialized.BlockBlobClient;
import com.azure.storage.common.StorageSharedKeyCredential;
import com.azure.storage.common.policy.RequestRetryOptions;
import com.azure.storage.common.policy.RetryPolicyType;
import dev.lancet.core.store.AlreadyExistsException;
import dev.lancet.core.store.Listing;
import dev.lancet.core.store.NotFoundException;
import dev.lancet.core.store.ObjectInfo;
import dev.lancet.core.store.ObjectOutput;
import dev.lancet.core.store.ObjectStore;
import dev.lancet.core.store.ObjectTooLargeException;
import dev.lancet.core.store.Ranges;
import dev.lancet.core.store.SharedClients;
import dev.lancet.core.store.StoreAccessException;
import dev.lancet.core.store.StoreAccessException.Reason;
import dev.lancet.core.store.StorePath;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * An {@link ObjectStore} on Azure Blob Storage (or Azurite), through the Azure SDK for Java.
 * Paths map to blob names under the table's prefix in one container.
 *
 * <p><b>Put-if-absent</b> is Put Blob with {@code If-None-Match: *} (for blobs of at least
 * {@link Settings#singleUploadLimit} bytes: staged blocks, then Put Block List with the
 * condition). 409 BlobAlreadyExists or 412 ConditionNotMet: {@link AlreadyExistsException}.
 * 503 ServerBusy and connections that never reached the server are retried with jittered
 * backoff; anything else after the request may have reached the server leaves the outcome
 * unknown and surfaces as a plain {@link IOException}, which the commit loop resolves by reading
 * the version back. The SDK's retries are off for these requests. Azure Blob Storage has honoured
 * {@code If-None-Match: *} on Put Blob since its first versions, so no probe is needed.
 *
 * <p>Other requests are idempotent and use the SDK's exponential retry policy. Bad credentials,
 * access denied and a missing container are {@link StoreAccessException}s with a one-line message.
 */
public final class AzureObjectStore implements ObjectStore {
  /** The most a bounded read asks for in its first request (the SDK reads further blocks after it). */
  private static final int BOUNDED_READ_BLOCK = 4 << 20;

  /** Tuning that is Lancet's, not a lance-core storage option. */
  public record Settings(long singleUploadLimit, long blockSize, Duration retryBase, Duration retryCap) {
    /** One Put Blob up to 16 MiB, else 8 MiB blocks; conditional retries from 25 ms, doubling to 2 s. */
    public static final Settings DEFAULT = new Settings(16L << 20, 8L << 20, Duration.ofMillis(25), Duration.ofSeconds(2));
  }

  private final AzureLocation location;
  private final String accountUrl;
  private final Settings settings;
  private final int maxRetries;
  private final BlobContainerClient container;
  private final BlobContainerClient conditionalContainer;
  private final SharedClients<Clients>.Lease lease;

  private AzureObjectStore(AzureLocation location, String accountUrl, Settings settings, int maxRetries,
      SharedClients<Clients>.Lease lease) {
    this.location = location;
    this.accountUrl = accountUrl;
    this.settings = settings;
    this.maxRetries = maxRetries;
    this.lease = lease;
    this.container = lease.clients().retrying().getBlobContainerClient(location.container());
    this.conditionalContainer = lease.clients().once().getBlobContainerClient(location.container());
  }

  public static AzureObjectStore open(String location, Map<String, String> storageOptions) {
    return open(location, storageOptions, System.getenv(), Settings.DEFAULT);
  }

  public static AzureObjectStore open(String location, Map<String, String> storageOptions,
      Map<String, String> environment, Settings settings) {
    AzureLocation parsed = AzureLocation.parse(location);
    AzureOptions options = AzureOptions.resolve(storageOptions, environment);
    String account = options.account(parsed);
    URI url = options.accountUrl(account);
    int retries = options.maxRetries();
    Map<String, String> key = new java.util.TreeMap<>(options.asMap());
    key.put(" account", account);
    SharedClients<Clients>.Lease lease = CLIENTS.acquire(key, () -> new Clients(
        service(options, account, url,
            new RequestRetryOptions(RetryPolicyType.EXPONENTIAL, retries + 1, (Integer) null, 100L, 5_000L, null)),
        service(options, account, url, new RequestRetryOptions(RetryPolicyType.FIXED, 1, (Integer) null, 1L, 1L, null))));
    return new AzureObjectStore(parsed, url.toString(), settings, retries, lease);
  }

  /** The SDK clients of one configuration: with the SDK's retries, and without (conditional puts). */
  record Clients(BlobServiceClient retrying, BlobServiceClient once) {}

  /**
   * The clients of every configuration in this JVM, shared by the stores opened with the same
   * options and bounded like the S3 store's ({@link SharedClients}): building a client and its
   * connections costs far more than a request. Each service client has its own HTTP client, and
   * the SDK gives neither a close method, so an evicted configuration is only dropped; what the
   * bound prevents is every configuration ever opened (a rotating SAS token makes a new one each
   * time) pinning its clients for the life of the JVM.
   */
  static final SharedClients<Clients> CLIENTS =
      new SharedClients<>(SharedClients.DEFAULT_MAX_IDLE, c -> { }, "Azure");

  private static BlobServiceClient service(AzureOptions options, String account, URI url, RequestRetryOptions retry) {
    BlobServiceClientBuilder b = new BlobServiceClientBuilder().endpoint(url.toString()).retryOptions(retry);
    if (options.sasToken().isPresent()) {
      b.sasToken(options.sasToken().get());
    } else if (options.accountKey().isPresent()) {
      b.credential(new StorageSharedKeyCredential(account, options.accountKey().get()));
    } else {
      throw new IllegalArgumentException("No Azure credentials for account " + account + ": set "
          + AzureOptions.ACCOUNT_KEY + " or " + AzureOptions.SAS_KEY + " (or AZURE_STORAGE_ACCOUNT_KEY / "
          + "AZURE_STORAGE_SAS_KEY); Azure AD credentials are not supported yet");
    }
    return b.buildClient();
  }

  public AzureLocation location() {
    return location;
  }

  @Override
  public byte[] get(String path) throws IOException {
    StorePath.validate(path);
    return read(path, () -> container.getBlobClient(location.blobName(path)).downloadContent().toBytes());
  }

  /**
   * One GET for a blob that fits in the first block read: the SDK's input stream reads the first
   * {@code min(maxBytes + 1, 4 MiB)} bytes with a ranged Get Blob whose answer carries the blob's
   * size, so a blob above the limit is refused after at most {@code maxBytes + 1} bytes and a
   * bounded read needs no Get Blob Properties first (the interface default, two requests).
   */
  @Override
  public byte[] get(String path, long maxBytes) throws IOException {
    StorePath.validate(path);
    int firstBlock = (int) Math.max(1, Math.min(maxBytes + 1, BOUNDED_READ_BLOCK));
    BlobInputStreamOptions options = new BlobInputStreamOptions().setBlockSize(firstBlock);
    BlobInputStream in = read(path, () -> container.getBlobClient(location.blobName(path)).openInputStream(options, Context.NONE));
    try (in) {
      long size = in.getProperties().getBlobSize();
      if (size > maxBytes) {
        throw new ObjectTooLargeException(path, size, maxBytes);
      }
      byte[] data = read(path, () -> {
        try {
          return in.readNBytes((int) size);
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      });
      if (data.length != size) {
        throw new EOFException("Get Blob " + path + " at " + accountUrl + " returned " + data.length
            + " of its " + size + " bytes");
      }
      return data;
    }
  }

  @Override
  public byte[] getRange(String path, long offset, int length) throws IOException {
    StorePath.validate(path);
    Ranges.checkArguments(path, offset, length);
    long size = size(path);
    Ranges.checkWithinSize(path, offset, length, size);
    if (length == 0) {
      return new byte[0];
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream(length);
    read(path, () -> container.getBlobClient(location.blobName(path)).downloadStreamWithResponse(out,
        new BlobRange(offset, (long) length), null, null, false, null, Context.NONE));
    byte[] data = out.toByteArray();
    if (data.length != length) {
      throw new EOFException("Range [" + offset + ", " + (offset + length) + ") of " + path + " returned "
          + data.length + " bytes (size " + size + ")");
    }
    return data;
  }

  @Override
  public long size(String path) throws IOException {
    StorePath.validate(path);
    return read(path, () -> container.getBlobClient(location.blobName(path)).getProperties().getBlobSize());
  }

  @Override
  public boolean exists(String path) throws IOException {
    StorePath.validate(path);
    try {
      size(path);
      return true;
    } catch (NotFoundException e) {
      return false;
    }
  }

  @Override
  public void put(String path, byte[] data) throws IOException {
    StorePath.validate(path);
    BinaryData body = BinaryData.fromBytes(Objects.requireNonNull(data, "data").clone());
    write(path, () -> container.getBlobClient(location.blobName(path)).uploadWithResponse(
        new BlobParallelUploadOptions(body).setParallelTransferOptions(transfer()), null, Context.NONE));
  }

  @Override
  public void putIfAbsent(String path, byte[] data) throws IOException {
    StorePath.validate(path);
    BinaryData body = BinaryData.fromBytes(Objects.requireNonNull(data, "data").clone());
    BlobParallelUploadOptions upload = new BlobParallelUploadOptions(body).setParallelTransferOptions(transfer())
        .setRequestConditions(new BlobRequestConditions().setIfNoneMatch("*"));
    ensureOpen("conditional Put Blob", path);
    for (int attempt = 0; ; attempt++) {
      try {
        conditionalContainer.getBlobClient(location.blobName(path)).uploadWithResponse(upload, null, Context.NONE);
        return;
      } catch (BlobStorageException e) {
        if (e.getStatusCode() == 409 && BlobErrorCode.BLOB_ALREADY_EXISTS.equals(e.getErrorCode())
            || e.getStatusCode() == 412) {
          throw new AlreadyExistsException(path, e);
        }
        RuntimeException access = accessError(e);
        if (access != null) {
          throw access;
        }
        if (e.getStatusCode() == 503 && attempt < maxRetries) {
          backoff(attempt, path);
          continue;
        }
        if (e.getStatusCode() == 503) {
          throw ioError("conditional Put Blob", path, e);
        }
        throw new IOException("Azure conditional Put Blob " + path + " at " + accountUrl + ": HTTP "
            + e.getStatusCode() + " " + e.getErrorCode() + "; whether the blob was written is unknown", e);
      } catch (RuntimeException e) {
        if (neverSent(e) && attempt < maxRetries) {
          backoff(attempt, path);
          continue;
        }
        throw new IOException("Azure conditional Put Blob " + path + " at " + accountUrl + " failed ("
            + e.getMessage() + "); whether the blob was written is unknown", e);
      }
    }
  }

  /**
   * Streams the blob in blocks of {@link Settings#blockSize} bytes: a blob that fits in one block
   * is one Put Blob on completion; a larger one stages its blocks as they fill and Put Block
   * List publishes them. An abort stages nothing more: uncommitted blocks are invisible and the
   * service drops them. Holds one block in memory.
   */
  @Override
  public ObjectOutput newOutput(String path) {
    StorePath.validate(path);
    ensureOpen("streamed write of", path);
    return new AzureOutput(path);
  }

  private final class AzureOutput implements ObjectOutput {
    private final String path;
    private final BlockBlobClient blob;
    private final String uploadTag = java.util.UUID.randomUUID().toString();
    private byte[] block = new byte[Math.toIntExact(settings.blockSize())];
    private int filled;
    private long position;
    private final List<String> blockIds = new ArrayList<>();
    private boolean completed;

    AzureOutput(String path) {
      this.path = path;
      this.blob = container.getBlobClient(location.blobName(path)).getBlockBlobClient();
    }

    @Override
    public void write(java.nio.ByteBuffer bytes) throws IOException {
      ensureWritable();
      while (bytes.hasRemaining()) {
        int n = Math.min(bytes.remaining(), block.length - filled);
        bytes.get(block, filled, n);
        filled += n;
        position += n;
        if (filled == block.length) {
          stageBlock();
        }
      }
    }

    @Override
    public long position() {
      return position;
    }

    private void stageBlock() throws IOException {
      // Block ids of one blob must have equal lengths: the upload's tag and a fixed-width number.
      String id = java.util.Base64.getEncoder().encodeToString(
          String.format("%s-%08d", uploadTag, blockIds.size()).getBytes(StandardCharsets.UTF_8));
      BinaryData body = BinaryData.fromBytes(java.util.Arrays.copyOf(block, filled));
      try {
        AzureObjectStore.this.write(path, () -> {
          blob.stageBlock(id, body);
          return null;
        });
      } catch (IOException | RuntimeException e) {
        abort();
        throw e;
      }
      blockIds.add(id);
      filled = 0;
    }

    @Override
    public void complete() throws IOException {
      ensureWritable();
      try {
        if (blockIds.isEmpty()) {
          BinaryData body = BinaryData.fromBytes(java.util.Arrays.copyOf(block, filled));
          AzureObjectStore.this.write(path, () -> blob.upload(body, true));
        } else {
          if (filled > 0) {
            stageBlock();
          }
          AzureObjectStore.this.write(path, () -> blob.commitBlockList(blockIds, true));
        }
      } catch (IOException | RuntimeException e) {
        abort();
        throw e;
      }
      completed = true;
      block = null;
    }

    @Override
    public void abort() {
      block = null;
    }

    @Override
    public void close() {
      if (!completed) {
        abort();
      }
    }

    private void ensureWritable() {
      if (block == null) {
        throw new IllegalStateException("the output of " + path + " is "
            + (completed ? "complete" : "aborted") + " and takes no more bytes");
      }
    }
  }

  private ParallelTransferOptions transfer() {
    return new ParallelTransferOptions().setMaxSingleUploadSizeLong(settings.singleUploadLimit())
        .setBlockSizeLong(settings.blockSize()).setMaxConcurrency(4);
  }

  @Override
  public List<ObjectInfo> list(String prefix) throws IOException {
    return list(prefix, Integer.MAX_VALUE);
  }

  @Override
  public List<ObjectInfo> listFirst(String prefix, int limit) throws IOException {
    if (limit < 0) {
      throw new IllegalArgumentException("Negative listing limit " + limit);
    }
    return list(prefix, limit);
  }

  @Override
  public boolean listsInPages() {
    return true;
  }

  /** Every request is a round trip: a commit overlaps the ones that do not depend on each other. */
  @Override
  public boolean overlapsRequests() {
    return true;
  }

  private List<ObjectInfo> list(String prefix, int limit) throws IOException {
    String directory = StorePath.validatePrefix(prefix);
    String blobPrefix = location.blobPrefix(directory);
    int pageSize = (int) Math.max(1, Math.min(5000, (long) limit));
    Listing out = new Listing(directory, blobPrefix);
    read(directory, () -> {
      Iterator<PagedResponse<BlobItem>> pages = container.listBlobsByHierarchy("/",
          new ListBlobsOptions().setPrefix(blobPrefix).setMaxResultsPerPage(pageSize), null).iterableByPage().iterator();
      while (out.size() < limit && pages.hasNext()) {
        for (BlobItem item : pages.next().getValue()) {
          if (!Boolean.TRUE.equals(item.isPrefix())) {
            out.offer(item.getName(), item.getProperties().getContentLength());
          }
        }
      }
      return null;
    });
    return out.first(limit);
  }

  @Override
  public void delete(String path) throws IOException {
    StorePath.validate(path);
    write(path, () -> container.getBlobClient(location.blobName(path)).deleteIfExists());
  }

  /**
   * Releases this store's hold on its configuration's shared clients (once; later calls do
   * nothing); a request after the close fails with an {@link IllegalStateException}.
   */
  @Override
  public void close() {
    lease.release();
  }

  @Override
  public String toString() {
    return "AzureObjectStore[" + location + " at " + accountUrl + "]";
  }

  @FunctionalInterface
  private interface Call<T> {
    T run();
  }

  /** A request after the close fails here, whatever became of the shared clients. */
  private void ensureOpen(String request, String path) {
    if (lease.released()) {
      throw new IllegalStateException("Azure " + request + " " + path + ": the store for " + location
          + " at " + accountUrl + " is closed; open the table again");
    }
  }

  private <T> T read(String path, Call<T> call) throws IOException {
    ensureOpen("request for", path);
    try {
      return call.run();
    } catch (BlobStorageException e) {
      RuntimeException access = accessError(e);
      if (access != null) {
        throw access;
      }
      if (e.getStatusCode() == 404) {
        throw new NotFoundException(path, e);
      }
      throw ioError("request for", path, e);
    } catch (UncheckedIOException e) {
      throw new IOException("Azure request for " + path + " at " + accountUrl + " failed: " + e.getMessage(), e);
    }
  }

  private <T> T write(String path, Call<T> call) throws IOException {
    ensureOpen("write of", path);
    try {
      return call.run();
    } catch (BlobStorageException e) {
      RuntimeException access = accessError(e);
      if (access != null) {
        throw access;
      }
      throw ioError("write of", path, e);
    } catch (UncheckedIOException e) {
      throw new IOException("Azure write of " + path + " at " + accountUrl + " failed: " + e.getMessage(), e);
    }
  }

  private RuntimeException accessError(BlobStorageException e) {
    BlobErrorCode code = e.getErrorCode();
    if (BlobErrorCode.CONTAINER_NOT_FOUND.equals(code)) {
      return new StoreAccessException(Reason.MISSING_BUCKET, "Azure container '" + location.container()
          + "' does not exist at " + accountUrl + ": create it, or check the table location " + location, e);
    }
    // Azure says AuthenticationFailed for a wrong key or signature; Azurite says
    // AuthorizationFailure, with the same "failed to authenticate" message.
    boolean authentication = BlobErrorCode.AUTHENTICATION_FAILED.equals(code)
        || String.valueOf(e.getServiceMessage()).contains("failed to authenticate");
    if (e.getStatusCode() == 403 && authentication) {
      return new StoreAccessException(Reason.BAD_CREDENTIALS, "Azure rejected the credentials for " + location
          + " at " + accountUrl + " (" + code + "): check azure_storage_account_name and "
          + "azure_storage_account_key (or azure_storage_sas_key)", e);
    }
    if (e.getStatusCode() == 403) {
      return new StoreAccessException(Reason.ACCESS_DENIED, "Azure denied access to " + location + " at "
          + accountUrl + " (" + (code == null ? "403" : code) + "): the credentials are not allowed to read and "
          + "write this table, or they are wrong", e);
    }
    return null;
  }

  private IOException ioError(String request, String path, BlobStorageException e) {
    return new IOException("Azure " + request + " " + path + " at " + accountUrl + " failed: HTTP "
        + e.getStatusCode() + (e.getErrorCode() == null ? "" : " " + e.getErrorCode()), e);
  }

  private static boolean neverSent(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof ConnectException || t instanceof UnknownHostException) {
        return true;
      }
    }
    return false;
  }

  private void backoff(int attempt, String path) throws InterruptedIOException {
    long cap = Math.min(settings.retryCap().toMillis(), settings.retryBase().toMillis() << Math.min(attempt, 20));
    try {
      TimeUnit.MILLISECONDS.sleep(ThreadLocalRandom.current().nextLong(cap / 2, cap + 1));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while retrying Azure Put Blob " + path);
    }
  }
}
