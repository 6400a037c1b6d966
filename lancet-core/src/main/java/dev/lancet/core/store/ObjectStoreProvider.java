package dev.lancet.core.store;

import java.util.Map;
import java.util.Set;

/**
 * Opens object stores for URI schemes the kernel does not serve itself ({@code s3://},
 * {@code az://}, ...). Implementations live in their own modules (lancet-store-s3,
 * lancet-store-azure), so the kernel depends on no cloud SDK; {@link ObjectStores} finds them
 * with {@link java.util.ServiceLoader}: a module registers its provider in
 * {@code META-INF/services/dev.lancet.core.store.ObjectStoreProvider}.
 */
public interface ObjectStoreProvider {

  /** The URI schemes this provider serves, lower case, e.g. {@code ["s3", "s3a"]}. */
  Set<String> schemes();

  /**
   * Opens the store whose root is {@code location} (for example {@code s3://bucket/tables/t}).
   *
   * @param storageOptions the caller's storage options, keys as lance-core spells them (for
   *     example {@code aws_endpoint}, {@code azure_storage_account_name}); the provider adds
   *     what the environment says for keys the caller did not give, and explicit options win
   * @throws IllegalArgumentException if the location is malformed or an option is invalid; the
   *     message names the location or the option and says what to write instead
   */
  ObjectStore open(String location, Map<String, String> storageOptions);
}
