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

  /**
   * {@code " at character 12"} (or {@code " at line 2, character 3"}), empty when unknown: a
   * place in the SQL text, not a table column.
   */
  public String describe() {
    if (!known()) {
      return "";
    }
    return line == 1 ? " at character " + column
        : " at line " + line + ", character " + column;
  }
}
