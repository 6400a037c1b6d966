package dev.lancet.core.action;

import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * A reference to a fragment, field or base id: an id that already exists (or was reserved),
 * or a token minted by an earlier action of the same operation. Tokens are scoped to one
 * operation and one id space: fragment token 0 and field token 0 are unrelated.
 */
public sealed interface Ref {

  /** An existing (or reserved) id. */
  record Committed(long id) implements Ref {
    @Override
    public String toString() {
      return "Committed(" + Long.toUnsignedString(id) + ")";
    }
  }

  /** A token minted by an earlier Add* action of the same operation. */
  record Local(int token) implements Ref {
    @Override
    public String toString() {
      return "Local(" + Integer.toUnsignedString(token) + ")";
    }
  }

  static Ref committed(long id) {
    return new Committed(id);
  }

  static Ref local(int token) {
    return new Local(token);
  }

  default OptionalLong committedId() {
    return this instanceof Committed c ? OptionalLong.of(c.id()) : OptionalLong.empty();
  }

  default OptionalInt localToken() {
    return this instanceof Local l ? OptionalInt.of(l.token()) : OptionalInt.empty();
  }
}
