package dev.lancet.core.action;

import dev.lancet.core.apply.ApplyState;
import dev.lancet.core.conflict.FootprintBuilder;
import java.util.List;
import java.util.Objects;

/**
 * A precondition, not a change: no concurrent commit inserted any of the keys in
 * {@code filter} over the key columns {@code keyFields}. Checked against concurrent commits;
 * at apply it only validates that the key columns exist.
 */
public record AssertUniqueKeys(List<Ref> keyFields, KeyExistenceFilter filter) implements Action {

  public AssertUniqueKeys {
    keyFields = List.copyOf(keyFields);
    Objects.requireNonNull(filter, "filter");
  }

  @Override
  public boolean isDataChange() {
    return false;
  }

  @Override
  public void apply(ApplyState state) {
    if (keyFields.isEmpty()) {
      throw state.invalid("AssertUniqueKeys names no key column");
    }
    for (Ref ref : keyFields) {
      int id = state.resolveField(ref);
      if (state.field(id).isEmpty()) {
        throw state.invalid("AssertUniqueKeys names key field " + id + ", which is not in the schema");
      }
    }
  }

  @Override
  public void footprint(FootprintBuilder fp) {
    fp.assertUniqueKeys(keyFields, filter);
  }
}
