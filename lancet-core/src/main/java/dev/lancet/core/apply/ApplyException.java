package dev.lancet.core.apply;

import dev.lancet.core.LancetException;

/**
 * A composite operation that cannot be applied as written (invalid input): names the step,
 * the action's position and kind, and what was wrong. Nothing of the operation is applied.
 */
public class ApplyException extends LancetException {
  private static final long serialVersionUID = 1L;

  private final String where;
  private final String problem;
  private final java.util.OptionalLong missingFragment;

  public ApplyException(String where, String problem) {
    this(where, problem, java.util.OptionalLong.empty());
  }

  /**
   * An action or operation that names a fragment the manifest it is applied to does not have:
   * on a rebase, that fragment may have been removed by a concurrent commit (then the commit
   * loop reports a conflict naming the winner, not invalid input).
   */
  public ApplyException(String where, String problem, java.util.OptionalLong missingFragment) {
    super(where.isEmpty() ? problem : where + ": " + problem);
    this.where = where;
    this.problem = problem;
    this.missingFragment = java.util.Objects.requireNonNull(missingFragment, "missingFragment");
  }

  /** The same failure located at {@code newWhere}. */
  public ApplyException at(String newWhere) {
    return new ApplyException(newWhere, problem, missingFragment);
  }

  /** The fragment the failure names as missing, if that is what it is. */
  public java.util.OptionalLong missingFragment() {
    return missingFragment;
  }

  /** "step 1 ('add column b'), action 2 (AddDataFile)", or empty outside an action. */
  public String where() {
    return where;
  }

  /** What was wrong, without the location. */
  public String problem() {
    return problem;
  }
}
