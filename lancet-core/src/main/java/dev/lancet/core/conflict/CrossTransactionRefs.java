package dev.lancet.core.conflict;

import dev.lancet.core.action.Ref;
import java.util.List;

/**
 * Compares refs that come from two different transactions. A {@link Ref.Local} token is scoped
 * to the operation that minted it, so two transactions' tokens name unrelated ids even when the
 * numbers agree, and a Local in one transaction cannot be matched to a Committed id in the other.
 * The comparison is therefore conservative: two lists are "the same" only when they are
 * equally long and every position holds the same Committed id; any Local makes them differ.
 */
final class CrossTransactionRefs {
  private CrossTransactionRefs() {}

  static boolean same(List<Ref> a, List<Ref> b) {
    if (a.size() != b.size()) {
      return false;
    }
    for (int i = 0; i < a.size(); i++) {
      if (!(a.get(i) instanceof Ref.Committed ca) || !(b.get(i) instanceof Ref.Committed cb)
          || ca.id() != cb.id()) {
        return false;
      }
    }
    return true;
  }
}
