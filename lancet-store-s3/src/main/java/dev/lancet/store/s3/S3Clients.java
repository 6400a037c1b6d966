package dev.lancet.store.s3;

import dev.lancet.core.store.SharedClients;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The SDK clients of one S3 configuration (endpoint, region, credentials, path style,
 * {@code allow_http}, timeouts, retries), shared by the stores opened with it through
 * {@link SharedClients}: the retrying client, the one for conditional writes (retried by the
 * store itself), their connection pool and the credentials provider.
 */
record S3Clients(SdkHttpClient http, S3Client client, S3Client conditional,
    AwsCredentialsProvider credentials) {
  private static final Logger LOG = LoggerFactory.getLogger(S3Clients.class);

  /** A cache of S3 clients keeping at most {@code maxIdle} idle configurations open. */
  static SharedClients<S3Clients> cache(int maxIdle) {
    return new SharedClients<>(maxIdle, S3Clients::close, "S3");
  }

  void close() {
    closeQuietly(client);
    closeQuietly(conditional);
    closeQuietly(http);
    // The default chain may hold refresh threads and files; a static provider holds nothing.
    if (credentials instanceof AutoCloseable c) {
      closeQuietly(c);
    }
  }

  private static void closeQuietly(AutoCloseable c) {
    try {
      c.close();
    } catch (Exception e) {
      LOG.debug("closing an S3 client failed: {}", e.getMessage());
    }
  }
}
