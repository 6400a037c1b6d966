package dev.lancet.store.s3;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.gaul.s3proxy.blobstore.BlobStore;
import org.gaul.s3proxy.blobstore.ForwardingBlobStore;
import org.gaul.s3proxy.blobstore.HttpResponse;
import org.gaul.s3proxy.blobstore.HttpResponseException;
import org.gaul.s3proxy.blobstore.domain.Blob;
import org.gaul.s3proxy.blobstore.options.PutOptions;

/**
 * What s3proxy's storage does, changed on demand, so that the real server answers over the
 * wire as a misbehaving or overloaded S3 would: ignore {@code If-None-Match} (as local-s3
 * does), or refuse the next puts with 503 (as S3's SlowDown).
 */
public final class ServerFaults extends ForwardingBlobStore {
  private volatile boolean ignoreConditions;
  private final AtomicInteger throttledPuts = new AtomicInteger();
  private final AtomicLong putAttempts = new AtomicLong();

  public ServerFaults(BlobStore delegate) {
    super(delegate);
  }

  /** From now on, puts ignore their If-None-Match condition (an unsafe server). */
  public void ignoreConditions(boolean ignore) {
    ignoreConditions = ignore;
  }

  /** The next {@code n} puts fail with 503 before touching storage. */
  public void throttleNextPuts(int n) {
    throttledPuts.set(n);
  }

  /** Every put that reached the storage layer, including throttled ones. */
  public long putAttempts() {
    return putAttempts.get();
  }

  @Override
  public String putBlob(String container, Blob blob, PutOptions options) {
    putAttempts.incrementAndGet();
    if (throttledPuts.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
      throw new HttpResponseException("SlowDown", new HttpResponse(503));
    }
    return super.putBlob(container, blob, ignoreConditions ? PutOptions.NONE : options);
  }
}
