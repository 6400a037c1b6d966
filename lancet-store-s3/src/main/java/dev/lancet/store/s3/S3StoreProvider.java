package dev.lancet.store.s3;

import dev.lancet.core.store.ObjectStore;
import dev.lancet.core.store.ObjectStoreProvider;
import java.util.Map;
import java.util.Set;

/** Serves {@code s3://} and {@code s3a://} table locations (registered for {@link java.util.ServiceLoader}). */
public final class S3StoreProvider implements ObjectStoreProvider {
  @Override
  public Set<String> schemes() {
    return Set.of("s3", "s3a");
  }

  @Override
  public ObjectStore open(String location, Map<String, String> storageOptions) {
    return S3ObjectStore.open(location, storageOptions);
  }
}
