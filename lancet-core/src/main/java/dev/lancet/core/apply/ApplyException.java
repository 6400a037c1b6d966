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

  public ApplyException(String where, String problem) {
    super(where.isEmpty() ? problem : where + ": " + problem);
    this.where = where;
    this.problem = problem;
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
