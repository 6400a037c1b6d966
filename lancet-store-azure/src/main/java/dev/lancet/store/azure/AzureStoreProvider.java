package dev.lancet.store.azure;

import dev.lancet.core.store.ObjectStore;
import dev.lancet.core.store.ObjectStoreProvider;
import java.util.Map;
import java.util.Set;

/** Serves {@code az://}, {@code azure://}, {@code abfs://} and {@code abfss://} table locations. */
public final class AzureStoreProvider implements ObjectStoreProvider {
  @Override
  public Set<String> schemes() {
    return Set.of("az", "azure", "abfs", "abfss");
  }

  @Override
  public ObjectStore open(String location, Map<String, String> storageOptions) {
    return AzureObjectStore.open(location, storageOptions);
  }
}
