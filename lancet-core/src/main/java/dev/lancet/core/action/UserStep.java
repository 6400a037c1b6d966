package dev.lancet.core.action;

import java.util.List;
import java.util.Objects;

/** One step a user recognises ("append batch 7"); its actions apply in order. */
public record UserStep(String description, List<Action> actions) {
  public UserStep {
    Objects.requireNonNull(description, "description");
    actions = List.copyOf(actions);
  }
}
