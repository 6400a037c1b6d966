package dev.lancet.store.s3;

import dev.lancet.core.store.AlreadyExistsException;
import dev.lancet.core.store.Listing;
import dev.lancet.core.store.NotFoundException;
import dev.lancet.core.store.ObjectInfo;
import dev.lancet.core.store.ObjectOutput;
import dev.lancet.core.store.ObjectTooLargeException;
import dev.lancet.core.store.ObjectStore;
import dev.lancet.core.store.Ranges;
import dev.lancet.core.store.SharedClients;
import dev.lancet.core.store.StoreAccessException;
import dev.lancet.core.store.StoreAccessException.Reason;
import dev.lancet.core.store.StorePath;
import java.io.EOFException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.auth.credentials.AnonymousCredentialsProvider;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.ResponseBytes;
import software.amazon.awssdk.core.ResponseInputStream;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.http.apache5.Apache5HttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.retries.api.RetryStrategy;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3ClientBuilder;
import software.amazon.awssdk.services.s3.S3Configuration;
import software.amazon.awssdk.services.s3.model.CompletedMultipartUpload;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Request;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * An {@link ObjectStore} on S3 or an S3-compatible server, through the AWS SDK for Java v2
 * (synchronous client, Apache HttpClient 5). Paths map to keys under the table's prefix.
 *
 * <p><b>Put-if-absent</b> is a PutObject with {@code If-None-Match: *} (for objects of at least
 * {@link Settings#multipartThreshold} bytes, a multipart upload whose CompleteMultipartUpload
 * carries the condition). 412 means another writer's object is there: {@link AlreadyExistsException}.
 * 409 ConditionalRequestConflict (a conflicting conditional write was in flight, ours was not
 * applied), 503/429 throttling and connections that never reached the server are retried with
 * jittered exponential backoff. Anything else after the request may have reached the server (a
 * timeout, a reset connection, a 5xx) leaves the outcome unknown: it surfaces as a plain
 * {@link IOException}, which the commit loop treats as an unknown outcome and resolves by
 * reading the version back. The SDK's own retries are off for these requests, since a silent
 * resend after a lost answer could report a version we won as lost, or the reverse.
 *
 * <p>Before its first put-if-absent, a store checks once per JVM and table root that the server
 * honours the condition (see {@link #verifyConditionalWrites()}); a server that ignores it gets
 * a {@link StoreAccessException} ({@link Reason#NO_CONDITIONAL_WRITES}) and no commit is
 * attempted. Lancet never falls back to an unconditional overwrite.
 *
 * <p>Every other request is idempotent and uses the SDK's standard retry strategy (throttling,
 * 5xx, timeouts and connection errors, with backoff). Bad credentials, access denied and a
 * missing bucket are {@link StoreAccessException}s with a one-line message.
 */
public final class S3ObjectStore implements ObjectStore {
  private static final Logger LOG = LoggerFactory.getLogger(S3ObjectStore.class);

  /** The probe object, under the table root, that {@link #verifyConditionalWrites} writes once. */
  public static final String PROBE_PATH = "_lancet/put-if-absent-probe";

  /** Table roots (endpoint + bucket + prefix) whose server was seen to honour If-None-Match. */
  private static final Map<String, Boolean> VERIFIED = new ConcurrentHashMap<>();

  /** Tuning that is Lancet's, not a lance-core storage option. */
  public record Settings(long multipartThreshold, int partSize, Duration retryBase, Duration retryCap) {
    /** Multipart from 16 MiB, in 8 MiB parts; conditional retries from 25 ms, doubling to 2 s. */
    public static final Settings DEFAULT = new Settings(16L << 20, 8 << 20, Duration.ofMillis(25), Duration.ofSeconds(2));

    public Settings {
      if (partSize < (5 << 20)) {
        throw new IllegalArgumentException("S3 multipart parts must be at least 5 MiB, not " + partSize + " bytes");
      }
      if (multipartThreshold < partSize) {
        throw new IllegalArgumentException("the multipart threshold " + multipartThreshold
            + " must be at least the part size " + partSize);
      }
    }
  }

  /** The SDK clients of every configuration in this JVM (shared, bounded: {@link SharedClients}). */
  static final SharedClients<S3Clients> CLIENTS = S3Clients.cache(SharedClients.DEFAULT_MAX_IDLE);

  private final S3Location location;
  private final String endpoint;
  private final Settings settings;
  private final int maxRetries;
  private final S3Client client;
  private final S3Client conditionalClient;
  private final SharedClients<S3Clients>.Lease lease;

  private S3ObjectStore(S3Location location, String endpoint, Settings settings, int maxRetries,
      SharedClients<S3Clients>.Lease lease) {
    this.location = location;
    this.endpoint = endpoint;
    this.settings = settings;
    this.maxRetries = maxRetries;
    this.lease = lease;
    this.client = lease.clients().client();
    this.conditionalClient = lease.clients().conditional();
  }

  /** Opens {@code s3://bucket/prefix} with lance-core storage options, completed from the environment. */
  public static S3ObjectStore open(String location, Map<String, String> storageOptions) {
    return open(location, storageOptions, System.getenv(), Settings.DEFAULT);
  }

  /** Opens with an explicit environment and settings (tests). */
  public static S3ObjectStore open(String location, Map<String, String> storageOptions,
      Map<String, String> environment, Settings settings) {
    S3Location parsed = S3Location.parse(location);
    S3Options options = S3Options.resolve(storageOptions, environment);
    Optional<URI> endpoint = options.endpoint();
    // A bad key pair fails in the build (credentials), before anything is cached.
    SharedClients<S3Clients>.Lease lease = CLIENTS.acquire(options.asMap(), () -> clients(options, endpoint));
    return new S3ObjectStore(parsed, endpoint.map(URI::toString).orElse(""), settings, options.maxRetries(), lease);
  }

  static S3Clients clients(S3Options options, Optional<URI> endpoint) {
    AwsCredentialsProvider credentials = credentials(options);
    SdkHttpClient http = Apache5HttpClient.builder()
        .connectionTimeout(options.connectTimeout())
        .socketTimeout(options.timeout())
        .maxConnections(64)
        .build();
    try {
      RetryStrategy retrying = AwsRetryStrategy.standardRetryStrategy().toBuilder()
          .maxAttempts(options.maxRetries() + 1).build();
      S3Client client = builder(options, endpoint, http, credentials)
          .overrideConfiguration(c -> c.retryStrategy(retrying)).build();
      S3Client conditional = builder(options, endpoint, http, credentials)
          .overrideConfiguration(c -> c.retryStrategy(AwsRetryStrategy.doNotRetry())).build();
      return new S3Clients(http, client, conditional, credentials);
    } catch (RuntimeException e) {
      http.close();
      if (credentials instanceof AutoCloseable c) {
        try {
          c.close();
        } catch (Exception suppressed) {
          e.addSuppressed(suppressed);
        }
      }
      throw e;
    }
  }

  private static S3ClientBuilder builder(S3Options options, Optional<URI> endpoint, SdkHttpClient http,
      AwsCredentialsProvider credentials) {
    S3ClientBuilder b = S3Client.builder()
        .httpClient(http)
        // Any region signs for a custom endpoint; for AWS, requests are redirected to the bucket's.
        .region(Region.of(options.region().orElse("us-east-1")))
        .credentialsProvider(credentials)
        .forcePathStyle(!options.virtualHostedStyle())
        // No "Expect: 100-continue" round trip for the small objects a commit writes (manifests,
        // .txn files); larger bodies keep it, so a refused upload is refused before it is sent.
        // Over plain HTTP (local servers) the SDK signs the payload; without aws-chunked framing
        // it hashes the body once instead of signing every chunk (measured: about half the client
        // CPU of a small PUT). Over HTTPS the payload is not signed, so this changes nothing there.
        .serviceConfiguration(S3Configuration.builder().expectContinueThresholdInBytes(1L << 20)
            .chunkedEncodingEnabled(false).build())
        // Checksums only where S3 requires them: S3-compatible servers differ in what they accept.
        .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
        .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED);
    if (endpoint.isPresent()) {
      b.endpointOverride(endpoint.get());
    } else {
      b.crossRegionAccessEnabled(options.region().isEmpty());
    }
    return b;
  }

  /** Built once per configuration: the default chain is closed with the configuration's clients. */
  private static AwsCredentialsProvider credentials(S3Options options) {
    if (options.skipSignature()) {
      return AnonymousCredentialsProvider.create();
    }
    Optional<String> key = options.accessKeyId();
    Optional<String> secret = options.secretAccessKey();
    if (key.isPresent() != secret.isPresent()) {
      throw new IllegalArgumentException("Storage options " + S3Options.ACCESS_KEY_ID + " and "
          + S3Options.SECRET_ACCESS_KEY + " go together; give both or neither (neither: the AWS SDK's default "
          + "credential chain)");
    }
    if (key.isPresent()) {
      Optional<String> token = options.sessionToken();
      return StaticCredentialsProvider.create(token.isPresent()
          ? AwsSessionCredentials.create(key.get(), secret.get(), token.get())
          : AwsBasicCredentials.create(key.get(), secret.get()));
    }
    return DefaultCredentialsProvider.builder().build();
  }

  /** The shared clients this store uses (tests). */
  S3Clients sharedClients() {
    return lease.clients();
  }

  /** The table root. */
  public S3Location location() {
    return location;
  }

  @Override
  public byte[] get(String path) throws IOException {
    StorePath.validate(path);
    return read("GET", path, () -> client.getObjectAsBytes(r -> r.bucket(location.bucket()).key(location.key(path)))
        .asByteArray());
  }

  /**
   * One GET: the object's length comes with the answer's headers, and a body longer than
   * {@code maxBytes} is abandoned unread (the connection is dropped rather than drained), so a
   * bounded read costs no size lookup first.
   */
  @Override
  public byte[] get(String path, long maxBytes) throws IOException {
    StorePath.validate(path);
    ResponseInputStream<GetObjectResponse> in = read("GET", path, () -> client.getObject(
        r -> r.bucket(location.bucket()).key(location.key(path))));
    try {
      Long length = in.response().contentLength();
      if (length != null && length > maxBytes) {
        in.abort();
        throw new ObjectTooLargeException(path, length, maxBytes);
      }
      byte[] data = in.readNBytes((int) Math.min(maxBytes, Integer.MAX_VALUE - 8) + 1);
      if (data.length > maxBytes) {
        in.abort();
        throw new ObjectTooLargeException(path, length == null ? data.length : length, maxBytes);
      }
      return data;
    } catch (SdkClientException e) {
      throw clientFailure("GET", path, e);
    } finally {
      in.close();
    }
  }

  @Override
  public byte[] getRange(String path, long offset, int length) throws IOException {
    StorePath.validate(path);
    Ranges.checkArguments(path, offset, length);
    if (length == 0) {
      Ranges.checkWithinSize(path, offset, 0, size(path));
      return new byte[0];
    }
    String range = "bytes=" + offset + "-" + (offset + length - 1);
    ResponseBytes<GetObjectResponse> bytes;
    try {
      bytes = read("GET", path, () -> client.getObjectAsBytes(r -> r.bucket(location.bucket())
          .key(location.key(path)).range(range)));
    } catch (IOException e) {
      if (e.getCause() instanceof S3Exception s3 && s3.statusCode() == 416) {
        Ranges.checkWithinSize(path, offset, length, size(path));
      }
      throw e;
    }
    byte[] data = bytes.asByteArray();
    if (data.length != length) {
      // S3 answers a range that runs past the end with the bytes that exist.
      Ranges.checkWithinSize(path, offset, length, totalSize(bytes.response()).orElse(offset + data.length));
      throw new EOFException("Range [" + offset + ", " + (offset + length) + ") of " + path + " returned "
          + data.length + " bytes");
    }
    return data;
  }

  private static Optional<Long> totalSize(GetObjectResponse response) {
    String contentRange = response.contentRange();
    if (contentRange == null || contentRange.indexOf('/') < 0) {
      return Optional.empty();
    }
    try {
      return Optional.of(Long.parseLong(contentRange.substring(contentRange.indexOf('/') + 1).trim()));
    } catch (NumberFormatException e) {
      return Optional.empty();
    }
  }

  @Override
  public long size(String path) throws IOException {
    StorePath.validate(path);
    return read("HEAD", path, () -> client.headObject(r -> r.bucket(location.bucket()).key(location.key(path)))
        .contentLength());
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
    Objects.requireNonNull(data, "data");
    if (data.length >= settings.multipartThreshold()) {
      multipart(path, data, false);
      return;
    }
    write("PUT", path, () -> client.putObject(r -> r.bucket(location.bucket()).key(location.key(path)),
        RequestBody.fromBytes(data)));
  }

  @Override
  public void putIfAbsent(String path, byte[] data) throws IOException {
    StorePath.validate(path);
    Objects.requireNonNull(data, "data");
    verifyConditionalWrites();
    conditionalPut(path, data);
  }

  private void conditionalPut(String path, byte[] data) throws IOException {
    if (data.length >= settings.multipartThreshold()) {
      multipart(path, data, true);
      return;
    }
    RequestBody body = RequestBody.fromBytes(data);
    conditional("conditional PUT", path, () -> conditionalClient.putObject(r -> r.bucket(location.bucket())
        .key(location.key(path)).ifNoneMatch("*"), body));
  }

  /**
   * Checks that the server refuses a second put-if-absent of one key, once per JVM and table
   * root: a conditional PUT of {@link #PROBE_PATH}; if it was created (the first probe of this
   * table ever), a second one, which must be refused with 412. A server that ignores
   * {@code If-None-Match} accepts it, and the store refuses to commit. Cost: one request per
   * JVM and table root (two the first time), and one 12-byte object left in place so that later
   * probes cost one request.
   *
   * @throws StoreAccessException with {@link Reason#NO_CONDITIONAL_WRITES} when the server
   *     ignores or rejects the condition
   */
  public void verifyConditionalWrites() throws IOException {
    String key = endpoint + "|" + location;
    if (VERIFIED.containsKey(key)) {
      return;
    }
    byte[] probe = "put-if-absent".getBytes(StandardCharsets.UTF_8);
    boolean refused;
    try {
      conditionalPut(PROBE_PATH, probe);
      try {
        conditionalPut(PROBE_PATH, probe);
        refused = false;
      } catch (AlreadyExistsException expected) {
        refused = true;
      }
    } catch (AlreadyExistsException earlierProbe) {
      refused = true;
    }
    if (!refused) {
      throw new StoreAccessException(Reason.NO_CONDITIONAL_WRITES, "The S3 server" + at()
          + " ignores If-None-Match on PutObject (a second put-if-absent of " + location.key(PROBE_PATH)
          + " succeeded), so a commit could overwrite a concurrent writer's version; Lancet refuses to commit "
          + "to " + location + ". Use a server with conditional writes (AWS S3, or a compatible server that "
          + "implements If-None-Match: *)");
    }
    VERIFIED.put(key, Boolean.TRUE);
  }

  private void multipart(String path, byte[] data, boolean ifAbsent) throws IOException {
    String key = location.key(path);
    String uploadId = write("create multipart upload for", path, () -> client.createMultipartUpload(
        r -> r.bucket(location.bucket()).key(key)).uploadId());
    boolean completed = false;
    try {
      List<CompletedPart> parts = new ArrayList<>();
      int partSize = settings.partSize();
      for (int offset = 0, number = 1; offset < data.length; offset += partSize, number++) {
        int n = Math.min(partSize, data.length - offset);
        int partNumber = number;
        RequestBody body = RequestBody.fromBytes(java.util.Arrays.copyOfRange(data, offset, offset + n));
        String etag = write("upload part " + number + " of", path, () -> client.uploadPart(
            r -> r.bucket(location.bucket()).key(key).uploadId(uploadId).partNumber(partNumber), body).eTag());
        parts.add(CompletedPart.builder().partNumber(number).eTag(etag).build());
      }
      CompletedMultipartUpload upload = CompletedMultipartUpload.builder().parts(parts).build();
      if (ifAbsent) {
        conditional("complete multipart upload (If-None-Match: *) of", path, () -> conditionalClient
            .completeMultipartUpload(r -> r.bucket(location.bucket()).key(key).uploadId(uploadId)
                .multipartUpload(upload).ifNoneMatch("*")));
      } else {
        write("complete multipart upload of", path, () -> client.completeMultipartUpload(
            r -> r.bucket(location.bucket()).key(key).uploadId(uploadId).multipartUpload(upload)));
      }
      completed = true;
    } finally {
      if (!completed) {
        try {
          client.abortMultipartUpload(r -> r.bucket(location.bucket()).key(key).uploadId(uploadId));
        } catch (RuntimeException e) {
          LOG.debug("could not abort multipart upload {} of {}: {}", uploadId, key, e.getMessage());
        }
      }
    }
  }

  /**
   * Streams the object in parts of {@link Settings#partSize} bytes: an object that fits in one
   * part is one PutObject on completion; a larger one is a multipart upload whose parts go up
   * as they fill and which CompleteMultipartUpload publishes (an abort aborts the upload).
   * Holds one part in memory.
   */
  @Override
  public ObjectOutput newOutput(String path) {
    StorePath.validate(path);
    ensureOpen("streamed write of", path);
    return new S3Output(path);
  }

  private final class S3Output implements ObjectOutput {
    private final String path;
    private final String key;
    private byte[] part = new byte[settings.partSize()];
    private int filled;
    private long position;
    private String uploadId;
    private final List<CompletedPart> parts = new ArrayList<>();
    private boolean completed;

    S3Output(String path) {
      this.path = path;
      this.key = location.key(path);
    }

    @Override
    public void write(ByteBuffer bytes) throws IOException {
      ensureWritable();
      while (bytes.hasRemaining()) {
        int n = Math.min(bytes.remaining(), part.length - filled);
        bytes.get(part, filled, n);
        filled += n;
        position += n;
        if (filled == part.length) {
          uploadPart();
        }
      }
    }

    @Override
    public long position() {
      return position;
    }

    private void uploadPart() throws IOException {
      try {
        if (uploadId == null) {
          uploadId = S3ObjectStore.this.write("create multipart upload for", path,
              () -> client.createMultipartUpload(r -> r.bucket(location.bucket()).key(key))
                  .uploadId());
        }
        int number = parts.size() + 1;
        RequestBody body = RequestBody.fromBytes(java.util.Arrays.copyOf(part, filled));
        String etag = S3ObjectStore.this.write("upload part " + number + " of", path,
            () -> client.uploadPart(r -> r.bucket(location.bucket()).key(key).uploadId(uploadId)
                .partNumber(number), body).eTag());
        parts.add(CompletedPart.builder().partNumber(number).eTag(etag).build());
        filled = 0;
      } catch (IOException | RuntimeException e) {
        abort();
        throw e;
      }
    }

    @Override
    public void complete() throws IOException {
      ensureWritable();
      try {
        if (uploadId == null) {
          RequestBody body = RequestBody.fromBytes(java.util.Arrays.copyOf(part, filled));
          S3ObjectStore.this.write("PUT", path, () -> client.putObject(
              r -> r.bucket(location.bucket()).key(key), body));
        } else {
          if (filled > 0) {
            uploadPart();
          }
          CompletedMultipartUpload upload = CompletedMultipartUpload.builder().parts(parts).build();
          S3ObjectStore.this.write("complete multipart upload of", path,
              () -> client.completeMultipartUpload(r -> r.bucket(location.bucket()).key(key)
                  .uploadId(uploadId).multipartUpload(upload)));
        }
      } catch (IOException | RuntimeException e) {
        abort();
        throw e;
      }
      completed = true;
      part = null;
    }

    @Override
    public void abort() {
      part = null;
      if (uploadId != null && !completed) {
        String id = uploadId;
        uploadId = null;
        try {
          client.abortMultipartUpload(r -> r.bucket(location.bucket()).key(key).uploadId(id));
        } catch (RuntimeException e) {
          LOG.debug("could not abort multipart upload {} of {}: {}", id, key, e.getMessage());
        }
      }
    }

    @Override
    public void close() {
      if (!completed) {
        abort();
      }
    }

    private void ensureWritable() {
      if (part == null) {
        throw new IllegalStateException("the output of " + path + " is "
            + (completed ? "complete" : "aborted") + " and takes no more bytes");
      }
    }
  }

  @Override
  public List<ObjectInfo> list(String prefix) throws IOException {
    return list(prefix, Integer.MAX_VALUE);
  }

  /** One ListObjectsV2 request when {@code limit} entries fit in a page (up to 1,000). */
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
    String keyPrefix = location.keyPrefix(directory);
    Listing out = new Listing(directory, keyPrefix);
    String token = null;
    while (out.size() < limit) {
      ListObjectsV2Request.Builder request = ListObjectsV2Request.builder().bucket(location.bucket())
          .prefix(keyPrefix).delimiter("/").maxKeys((int) Math.min(1000, Math.max(1, (long) limit - out.size())));
      if (token != null) {
        request.continuationToken(token);
      }
      ListObjectsV2Request built = request.build();
      ListObjectsV2Response page = read("LIST", directory, () -> client.listObjectsV2(built));
      for (S3Object object : page.contents()) {
        out.offer(object.key(), object.size());
      }
      if (!Boolean.TRUE.equals(page.isTruncated())) {
        break;
      }
      token = page.nextContinuationToken();
    }
    return out.first(limit);
  }

  @Override
  public void delete(String path) throws IOException {
    StorePath.validate(path);
    write("DELETE", path, () -> client.deleteObject(r -> r.bucket(location.bucket()).key(location.key(path))));
  }

  /**
   * Releases this store's hold on its configuration's shared clients (once; later calls do
   * nothing). The clients stay open for the next store of the same configuration while few
   * configurations are idle ({@link SharedClients}); a request after the close fails with an
   * {@link IllegalStateException} naming the store.
   */
  @Override
  public void close() {
    lease.release();
  }

  @Override
  public String toString() {
    return "S3ObjectStore[" + location + at() + "]";
  }

  private String at() {
    return endpoint.isEmpty() ? "" : " at " + endpoint;
  }

  @FunctionalInterface
  private interface Call<T> {
    T run();
  }

  /** A closed store's clients may be closed too (evicted): say so, not "pool shut down". */
  private void ensureOpen(String request, String path) {
    if (lease.released()) {
      throw new IllegalStateException("S3 " + request + " " + path + ": the store for " + location
          + at() + " is closed; open the table again");
    }
  }

  /** A read: 404 is {@link NotFoundException}. */
  private <T> T read(String request, String path, Call<T> call) throws IOException {
    ensureOpen(request, path);
    try {
      return call.run();
    } catch (NoSuchKeyException e) {
      throw new NotFoundException(path, e);
    } catch (S3Exception e) {
      RuntimeException access = S3Errors.accessError(e, location, endpoint);
      if (access != null) {
        throw access;
      }
      if (e.statusCode() == 404) {
        throw new NotFoundException(path, e);
      }
      throw S3Errors.ioError(request, path, e);
    } catch (SdkClientException e) {
      throw clientFailure(request, path, e);
    }
  }

  /** An idempotent write, retried by the SDK. */
  private <T> T write(String request, String path, Call<T> call) throws IOException {
    ensureOpen(request, path);
    try {
      return call.run();
    } catch (S3Exception e) {
      RuntimeException access = S3Errors.accessError(e, location, endpoint);
      if (access != null) {
        throw access;
      }
      throw S3Errors.ioError(request, path, e);
    } catch (SdkClientException e) {
      throw clientFailure(request, path, e);
    }
  }

  private RuntimeException credentialsMissing(SdkClientException e) {
    return S3Errors.credentialsMissing(e, location);
  }

  private IOException clientFailure(String request, String path, SdkClientException e) {
    RuntimeException missing = credentialsMissing(e);
    if (missing != null) {
      throw missing;
    }
    return S3Errors.clientError(request, path + at(), e);
  }

  /**
   * A conditional write, retried here only when the server certainly did not apply it (409
   * conflict, throttling, never sent). 412 is {@link AlreadyExistsException}.
   */
  private <T> T conditional(String request, String path, Call<T> call) throws IOException {
    ensureOpen(request, path);
    for (int attempt = 0; ; attempt++) {
      try {
        return call.run();
      } catch (S3Exception e) {
        if (e.statusCode() == 412) {
          throw new AlreadyExistsException(path, e);
        }
        if (S3Errors.isConditionNotImplemented(e)) {
          throw new StoreAccessException(Reason.NO_CONDITIONAL_WRITES, "The S3 server" + at()
              + " does not implement If-None-Match on " + request + " (" + S3Errors.code(e) + "), so Lancet "
              + "cannot commit to " + location + " safely and refuses to", e);
        }
        RuntimeException access = S3Errors.accessError(e, location, endpoint);
        if (access != null) {
          throw access;
        }
        if ((S3Errors.isConditionalConflict(e) || S3Errors.isThrottle(e)) && attempt < maxRetries) {
          backoff(attempt, request, path);
          continue;
        }
        if (S3Errors.isConditionalConflict(e) || S3Errors.isThrottle(e)) {
          // Certainly not applied, but we ran out of retries: the commit loop will try again.
          throw S3Errors.ioError(request, path, e);
        }
        throw new IOException("S3 " + request + " " + path + at() + ": HTTP " + e.statusCode() + " "
            + S3Errors.code(e) + "; whether the object was written is unknown", e);
      } catch (SdkClientException e) {
        RuntimeException missing = credentialsMissing(e);
        if (missing != null) {
          throw missing;
        }
        if (S3Errors.neverSent(e) && attempt < maxRetries) {
          backoff(attempt, request, path);
          continue;
        }
        throw new IOException("S3 " + request + " " + path + at() + " failed (" + e.getMessage()
            + "); whether the object was written is unknown", e);
      }
    }
  }

  private void backoff(int attempt, String request, String path) throws InterruptedIOException {
    long cap = Math.min(settings.retryCap().toMillis(), settings.retryBase().toMillis() << Math.min(attempt, 20));
    long sleep = ThreadLocalRandom.current().nextLong(cap / 2, cap + 1);
    LOG.debug("retrying S3 {} {} in {} ms (attempt {})", request, path, sleep, attempt + 2);
    try {
      TimeUnit.MILLISECONDS.sleep(sleep);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while retrying S3 " + request + " " + path);
    }
  }
}
