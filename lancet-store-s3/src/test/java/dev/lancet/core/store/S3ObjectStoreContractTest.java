package dev.lancet.core.store;

import dev.lancet.store.s3.S3ObjectStore;
import dev.lancet.store.s3.S3ProxyServer;

/**
 * The store contract on a real S3 server (s3proxy on loopback): every method, paths, ranges,
 * listing, put-if-absent across 16 threads for 200 rounds. Multipart uploads start at 5 MiB
 * here, so the contract's 5 MiB + 17 byte payloads go through CreateMultipartUpload, two
 * UploadParts and a CompleteMultipartUpload (conditional for put-if-absent).
 */
class S3ObjectStoreContractTest extends ObjectStoreContract {
  private static final S3ObjectStore.Settings SMALL_PARTS = new S3ObjectStore.Settings(
      5L << 20, 5 << 20, S3ObjectStore.Settings.DEFAULT.retryBase(), S3ObjectStore.Settings.DEFAULT.retryCap());

  @Override
  protected ObjectStore newStore() {
    S3ProxyServer server = S3ProxyServer.shared();
    String bucket = server.newBucket("contract");
    return S3ObjectStore.open("s3://" + bucket + "/tables/t", server.storageOptions(), java.util.Map.of(), SMALL_PARTS);
  }
}
