package dev.lancet.store.s3;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.gaul.s3proxy.AuthenticationType;
import org.gaul.s3proxy.S3Proxy;
import org.gaul.s3proxy.nio2blob.TransientNio2BlobStore;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * A real S3 server on loopback for tests: s3proxy 4.0.0 in this JVM over its in-memory
 * {@code transient-nio2} backend, with AWS V2/V4 signatures checked against one test key.
 * It counts requests on the server side: s3proxy's own request metrics (one histogram sample
 * per HTTP request, labelled by S3 operation), scraped from its metrics port.
 *
 * <p>{@link #shared()} starts one server per JVM, on first use; tests isolate themselves by
 * bucket ({@link #newBucket}).
 */
public final class S3ProxyServer implements AutoCloseable {
  public static final String ACCESS_KEY = "lancet-access-key";
  public static final String SECRET_KEY = "lancet-secret-key";
  public static final String REGION = "us-east-1";

  private static S3ProxyServer shared;

  private final S3Proxy proxy;
  private final ServerFaults faults;
  private final URI endpoint;
  private final URI metrics;
  private final S3Client admin;
  private final HttpClient http = HttpClient.newHttpClient();

  private S3ProxyServer(S3Proxy proxy, ServerFaults faults) {
    this.proxy = proxy;
    this.faults = faults;
    this.endpoint = URI.create("http://127.0.0.1:" + proxy.getPort());
    this.metrics = URI.create("http://127.0.0.1:" + proxy.getMetricsPort() + "/metrics");
    this.admin = S3Client.builder().endpointOverride(endpoint).region(Region.of(REGION)).forcePathStyle(true)
        .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(ACCESS_KEY, SECRET_KEY)))
        .build();
  }

  /**
   * The JVM's server, started on first use; it lives until the JVM exits (not stopped in a
   * shutdown hook: s3proxy's graceful stop waits up to 30 s for idle keep-alive connections).
   */
  public static synchronized S3ProxyServer shared() {
    if (shared == null) {
      shared = start();
    }
    return shared;
  }

  /**
   * Runs a server by hand, e.g. for {@code ./lancet demo s3://...} (see the README): args
   * {@code PORT BUCKET}; prints the storage options and serves until killed.
   */
  public static void main(String[] args) throws Exception {
    int port = args.length > 0 ? Integer.parseInt(args[0]) : 9000;
    String bucket = args.length > 1 ? args[1] : "demo-bucket";
    S3ProxyServer server = start(port);
    server.admin.createBucket(r -> r.bucket(bucket));
    System.out.println("s3proxy (in-memory) on " + server.endpoint() + ", bucket " + bucket + "; storage options:");
    server.storageOptions().forEach((k, v) -> System.out.println("  --storage-option " + k + "=" + v));
    Thread.currentThread().join();
  }

  /** Starts a new server on a free loopback port. */
  public static S3ProxyServer start() {
    return start(0);
  }

  private static S3ProxyServer start(int port) {
    try {
      ServerFaults faults = new ServerFaults(new TransientNio2BlobStore());
      S3Proxy proxy = S3Proxy.builder()
          .blobStore(faults)
          .endpoint(URI.create("http://127.0.0.1:" + port))
          .awsAuthentication(AuthenticationType.AWS_V2_OR_V4, ACCESS_KEY, SECRET_KEY)
          .metricsEnabled(true)
          .metricsPort(0)
          .metricsHost("127.0.0.1")
          .build();
      proxy.start();
      return new S3ProxyServer(proxy, faults);
    } catch (Exception e) {
      throw new IllegalStateException("could not start s3proxy on loopback: " + e, e);
    }
  }

  /** Faults of this server's storage (off unless a test turns them on; a test that does uses its own server). */
  public ServerFaults faults() {
    return faults;
  }

  public URI endpoint() {
    return endpoint;
  }

  /** lance-core storage options for this server (the same keys Lancet reads). */
  public Map<String, String> storageOptions() {
    return Map.of(
        "aws_endpoint", endpoint.toString(),
        "aws_access_key_id", ACCESS_KEY,
        "aws_secret_access_key", SECRET_KEY,
        "aws_region", REGION,
        "allow_http", "true");
  }

  /** Creates a bucket with a fresh name and returns the name. */
  public String newBucket(String hint) {
    String name = (hint.toLowerCase().replaceAll("[^a-z0-9-]", "-") + "-" + UUID.randomUUID().toString().substring(0, 8));
    if (name.length() > 63) {
      name = name.substring(name.length() - 63);
    }
    if (!Character.isLetterOrDigit(name.charAt(0))) {
      name = "b" + name.substring(1);
    }
    String bucket = name;
    admin.createBucket(r -> r.bucket(bucket));
    return bucket;
  }

  /** A client for looking at what landed, independent of the store under test. */
  public S3Client admin() {
    return admin;
  }

  /**
   * Requests the server has answered since it started, by S3 operation (s3proxy's names, e.g.
   * {@code PutObject}, {@code GetObject}, {@code HeadObject}, {@code ListObjectsV2}).
   */
  public Map<String, Long> requestCounts() {
    return requestCounts(null);
  }

  /** Like {@link #requestCounts()}, counting only requests on {@code bucket} (null: all). */
  public Map<String, Long> requestCounts(String bucket) {
    awaitNoRequestInFlight();
    String text;
    try {
      text = http.send(HttpRequest.newBuilder(metrics).GET().build(), HttpResponse.BodyHandlers.ofString()).body();
    } catch (IOException e) {
      throw new UncheckedIOException("scraping s3proxy metrics", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
    Map<String, Long> counts = new TreeMap<>();
    Pattern sample = Pattern.compile("^(\\w+)_count\\{([^}]*)}\\s+([0-9.eE+]+)\\s*$");
    Pattern operation = Pattern.compile("s3_operation=\"([^\"]*)\"");
    Pattern bucketLabel = Pattern.compile("s3_bucket=\"([^\"]*)\"");
    for (String line : text.split("\n")) {
      Matcher m = sample.matcher(line);
      if (!m.matches()) {
        continue;
      }
      Matcher op = operation.matcher(m.group(2));
      Matcher b = bucketLabel.matcher(m.group(2));
      if (bucket != null && !(b.find() && b.group(1).equals(bucket))) {
        continue;
      }
      if (op.find()) {
        counts.merge(op.group(1), (long) Double.parseDouble(m.group(3)), Long::sum);
      }
    }
    return counts;
  }

  /** Requests on {@code bucket} by operation since {@code before} (a {@link #requestCounts(String)} snapshot). */
  public Map<String, Long> requestsSince(String bucket, Map<String, Long> before) {
    Map<String, Long> delta = new TreeMap<>();
    requestCounts(bucket).forEach((op, n) -> {
      long d = n - before.getOrDefault(op, 0L);
      if (d != 0) {
        delta.put(op, d);
      }
    });
    return delta;
  }

  /**
   * Waits until the server has finished every request it received. s3proxy records a request's
   * metric after it has sent the answer, so a client can see the answer before the count moves;
   * the graceful-stop handler wrapping s3proxy's servlet counts requests still in the server,
   * and a count read once that is zero includes every request the caller has seen answered.
   */
  private void awaitNoRequestInFlight() {
    try {
      java.lang.reflect.Field field = S3Proxy.class.getDeclaredField("server");
      field.setAccessible(true);
      Object jetty = field.get(proxy);
      Object graceful = jetty.getClass().getMethod("getHandler").invoke(jetty);
      java.lang.reflect.Method inFlight = graceful.getClass().getMethod("getCurrentRequestCount");
      long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(10);
      while ((long) inFlight.invoke(graceful) > 0) {
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException("s3proxy still has requests in flight after 10 s");
        }
        Thread.onSpinWait();
      }
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("cannot read s3proxy's in-flight request count: " + e, e);
    }
  }

  /** The raw metrics text (for debugging a count). */
  public String metricsText() throws IOException, InterruptedException {
    return http.send(HttpRequest.newBuilder(metrics).GET().build(), HttpResponse.BodyHandlers.ofString()).body();
  }

  @Override
  public void close() {
    admin.close();
    try {
      proxy.stop();
    } catch (Exception e) {
      // stopping at JVM exit: nothing to do
    }
  }
}
