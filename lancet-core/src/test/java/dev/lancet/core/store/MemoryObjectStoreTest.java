package dev.lancet.core.store;

/** Runs the store contract against {@link MemoryObjectStore}. */
class MemoryObjectStoreTest extends ObjectStoreContract {
  @Override
  protected ObjectStore newStore() {
    return new MemoryObjectStore();
  }
}
