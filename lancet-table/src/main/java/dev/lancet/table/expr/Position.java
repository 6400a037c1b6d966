package dev.lancet.table.expr;

/**
 * Where a construct starts in the SQL text: 1-based line and column, or {@link #UNKNOWN} when the
 * parser did not record it.
 */
public record Position(int line, int column) {

  public static final Position UNKNOWN = new Position(0, 0);

  public boolean known() {
    return line > 0;
  }

  /** {@code " at column 12"} (or {@code " at line 2, column 3"}), empty when unknown. */
  public String describe() {
    if (!known()) {
      return "";
    }
    return line == 1 ? " at column " + column : " at line " + line + ", column " + column;
  }
}
