package dev.lancet.core.store;

/** A {@link FaultInjectingStore} with nothing injected must keep the full store contract. */
class FaultInjectingStorePassThroughTest extends ObjectStoreContract {
  @Override
  protected ObjectStore newStore() {
    // Two layers, to show wrappers compose without changing behaviour.
    return FaultInjectingStore.wrap(FaultInjectingStore.wrap(new MemoryObjectStore()));
  }
}
