package dev.lancet.core.conflict.legacy;

import dev.lancet.core.conflict.Collision;
import java.util.List;
import java.util.Objects;

/**
 * The answer of the legacy pairwise check: may our transaction land after theirs?
 *
 * <p>An {@link Kind#OK} verdict may carry second-phase obligations: work the commit loop must do
 * before publishing (read deletion vectors and intersect rows, rewrite our deletion files, ...).
 * Until those are discharged by {@link LegacySecondPhase} or {@link LegacyRebase}, an OK with
 * obligations is only provisional. RETRYABLE and INCOMPATIBLE verdicts carry none, and name what
 * collided as typed values.
 *
 * @param kind the verdict
 * @param reason a sentence naming both operations and the fragments, fields or indices involved
 * @param obligations second-phase work, in the order it was raised
 * @param collisions what collided (at least one for RETRYABLE and INCOMPATIBLE, none for OK)
 */
public record LegacyVerdict(Kind kind, String reason, List<SecondPhaseObligation> obligations,
    List<Collision> collisions) {

  /** The three outcomes of a legacy check. */
  public enum Kind {
    /** No conflict (possibly pending the second phase). */
    OK,
    /** A conflict that a retry, rebuilt against the newer version, may clear. */
    RETRYABLE,
    /** A conflict no retry can clear: the caller must rebuild the transaction from scratch. */
    INCOMPATIBLE
  }

  public LegacyVerdict {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(reason, "reason");
    obligations = List.copyOf(obligations);
    collisions = List.copyOf(collisions);
    if (kind != Kind.OK && !obligations.isEmpty()) {
      throw new IllegalArgumentException("only an OK verdict carries second-phase obligations");
    }
    if ((kind == Kind.OK) != collisions.isEmpty()) {
      throw new IllegalArgumentException("a conflict names what collided, an OK verdict nothing");
    }
  }

  public static LegacyVerdict ok(String reason) {
    return new LegacyVerdict(Kind.OK, reason, List.of(), List.of());
  }

  public static LegacyVerdict ok(String reason, List<SecondPhaseObligation> obligations) {
    return new LegacyVerdict(Kind.OK, reason, obligations, List.of());
  }

  /** A retryable conflict whose one collision's description is the reason. */
  public static LegacyVerdict retryable(Collision collision) {
    return new LegacyVerdict(Kind.RETRYABLE, collision.description(), List.of(), List.of(collision));
  }

  public static LegacyVerdict retryable(String reason, List<Collision> collisions) {
    return new LegacyVerdict(Kind.RETRYABLE, reason, List.of(), collisions);
  }

  /** An incompatibility whose one collision's description is the reason. */
  public static LegacyVerdict incompatible(Collision collision) {
    return new LegacyVerdict(Kind.INCOMPATIBLE, collision.description(), List.of(), List.of(collision));
  }

  public boolean isOk() {
    return kind == Kind.OK;
  }

  /** Whether the verdict is OK only once its obligations are discharged. */
  public boolean needsSecondPhase() {
    return !obligations.isEmpty();
  }

  @Override
  public String toString() {
    return kind + ": " + reason + (obligations.isEmpty() ? "" : " " + obligations);
  }
}
