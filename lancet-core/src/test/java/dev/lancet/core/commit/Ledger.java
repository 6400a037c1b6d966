package dev.lancet.core.commit;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What writers were told, shared by all writer threads of a test: acknowledged commits (uuid
 * to version), uuids whose outcome was ever unknown, uuids that definitely did not land, the
 * count of each error kind, and any surprise (an exception the contract does not allow).
 */
public final class Ledger {
  private final Map<String, Long> acknowledged = new ConcurrentHashMap<>();
  private final Set<String> everUnknown = ConcurrentHashMap.newKeySet();
  private final Set<String> notPublished = ConcurrentHashMap.newKeySet();
  private final ConcurrentLinkedQueue<Throwable> surprises = new ConcurrentLinkedQueue<>();
  private final AtomicLong conflicts = new AtomicLong();
  private final AtomicLong incompatible = new AtomicLong();
  private final AtomicLong retriesExhausted = new AtomicLong();
  private final AtomicLong unknownOutcomes = new AtomicLong();
  private final AtomicLong storeFailures = new AtomicLong();
  private final AtomicLong attempts = new AtomicLong();

  void acknowledge(String uuid, long version, int attemptCount) {
    Long previous = acknowledged.putIfAbsent(uuid, version);
    if (previous != null && previous != version) {
      surprise(new AssertionError("transaction " + uuid + " acknowledged at version " + previous
          + " and again at " + version));
    }
    attempts.addAndGet(attemptCount);
  }

  /** A copy that also counts {@code uuid} as acknowledged at {@code version} (e.g. a set-up commit). */
  public Ledger withAcknowledged(String uuid, long version) {
    Ledger copy = new Ledger();
    copy.acknowledged.putAll(acknowledged);
    copy.acknowledged.put(uuid, version);
    copy.everUnknown.addAll(everUnknown);
    return copy;
  }

  void unknown(String uuid) {
    everUnknown.add(uuid);
    unknownOutcomes.incrementAndGet();
  }

  void notPublished(String uuid) {
    notPublished.add(uuid);
  }

  void recordConflict() {
    conflicts.incrementAndGet();
  }

  void recordIncompatible() {
    incompatible.incrementAndGet();
  }

  void recordRetriesExhausted() {
    retriesExhausted.incrementAndGet();
  }

  void recordStoreFailure() {
    storeFailures.incrementAndGet();
  }

  public void surprise(Throwable t) {
    surprises.add(t);
  }

  public Map<String, Long> acknowledged() {
    return Map.copyOf(acknowledged);
  }

  public Set<String> everUnknown() {
    return Set.copyOf(everUnknown);
  }

  public Set<String> notPublished() {
    return Set.copyOf(notPublished);
  }

  public List<Throwable> surprises() {
    return List.copyOf(surprises);
  }

  public long conflicts() {
    return conflicts.get();
  }

  public long incompatible() {
    return incompatible.get();
  }

  public long retriesExhausted() {
    return retriesExhausted.get();
  }

  public long unknownOutcomes() {
    return unknownOutcomes.get();
  }

  public long storeFailures() {
    return storeFailures.get();
  }

  @Override
  public String toString() {
    return "acknowledged=" + acknowledged.size() + " conflicts=" + conflicts + " incompatible=" + incompatible
        + " retriesExhausted=" + retriesExhausted + " unknownOutcomes=" + unknownOutcomes
        + " (uuids " + everUnknown.size() + ") storeFailures=" + storeFailures
        + " attemptsOfAcknowledged=" + attempts + " surprises=" + surprises.size();
  }
}
