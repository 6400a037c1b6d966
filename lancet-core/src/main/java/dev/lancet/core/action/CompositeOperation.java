package dev.lancet.core.action;

import java.util.ArrayList;
import java.util.List;

/**
 * A Transaction V2 operation: ordered user steps, applied step by step, action by action, as
 * one atomic change to the table.
 */
public record CompositeOperation(List<UserStep> steps) {
  public CompositeOperation {
    steps = List.copyOf(steps);
  }

  /** Every action in application order. */
  public List<Action> actions() {
    List<Action> out = new ArrayList<>();
    for (UserStep s : steps) {
      out.addAll(s.actions());
    }
    return out;
  }
}
