package dev.lancet.core.store;

import java.io.IOException;

/**
 * The error a {@link FaultInjectingStore} throws in place of a real I/O failure. With
 * {@link FaultInjectingStore.Timing#AFTER} the operation was performed before this was thrown:
 * the caller faces an unknown outcome, as after a timeout on a request the server did complete.
 */
public class InjectedFaultException extends IOException {
  private final FaultInjectingStore.Operation operation;
  private final String path;
  private final FaultInjectingStore.Timing timing;
  private final long matchingCall;

  public InjectedFaultException(FaultInjectingStore.Operation operation, String path,
                                FaultInjectingStore.Timing timing, long matchingCall) {
    super("Injected fault " + timing + " " + operation + " " + path + " (matching call #" + matchingCall + ")"
        + (timing == FaultInjectingStore.Timing.AFTER ? ": the operation ran, but its outcome is hidden from the caller" : ": the operation did not run"));
    this.operation = operation;
    this.path = path;
    this.timing = timing;
    this.matchingCall = matchingCall;
  }

  /** The operation that failed. */
  public FaultInjectingStore.Operation operation() {
    return operation;
  }

  /** The path (or, for LIST, the prefix) of the failed call. */
  public String path() {
    return path;
  }

  /** Whether the operation ran before the fault was thrown. */
  public FaultInjectingStore.Timing timing() {
    return timing;
  }

  /** Which matching call of the fault rule this was, counted from 1. */
  public long matchingCall() {
    return matchingCall;
  }
}
