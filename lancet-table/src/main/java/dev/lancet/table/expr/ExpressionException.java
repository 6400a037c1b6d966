package dev.lancet.table.expr;

/**
 * A filter or value expression that Lancet will not evaluate: it does not parse, uses a construct
 * Lance filters do not support, names a column the schema lacks, mixes types Lance does not
 * coerce, or fails on the data (division by zero, overflow, a cast that does not convert). The
 * message names the construct, where it is in the text, and what to do instead.
 */
public final class ExpressionException extends IllegalArgumentException {

  /** What went wrong. */
  public enum Kind {
    /** The text is not SQL (or not one expression). */
    SYNTAX,
    /** Valid SQL, but a construct Lance filters do not support. */
    UNSUPPORTED,
    /** A column or struct field the schema does not have. */
    UNKNOWN_COLUMN,
    /** Operand types that do not go together (and Lance would not coerce). */
    TYPE,
    /** Evaluation failed on a row: division by zero, overflow, a failed cast. */
    EVALUATION
  }

  private final Kind kind;
  private final Position position;

  public ExpressionException(Kind kind, Position position, String message) {
    super(message);
    this.kind = kind;
    this.position = position;
  }

  public ExpressionException(Kind kind, Position position, String message, Throwable cause) {
    super(message, cause);
    this.kind = kind;
    this.position = position;
  }

  public Kind kind() {
    return kind;
  }

  /** Where the offending construct starts, or {@link Position#UNKNOWN}. */
  public Position position() {
    return position;
  }

  static ExpressionException unsupported(String construct, Position at, String hint) {
    return new ExpressionException(
        Kind.UNSUPPORTED,
        at,
        "unsupported in a Lance filter: " + construct + at.describe()
            + (hint.isEmpty() ? "" : "; " + hint));
  }

  static ExpressionException type(Position at, String message) {
    return new ExpressionException(Kind.TYPE, at, message + at.describe());
  }

  static ExpressionException evaluation(Position at, String message) {
    return new ExpressionException(Kind.EVALUATION, at, message + at.describe());
  }
}
