package dev.lancet.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * A plain-text table: a header row, a rule, then the rows, columns separated by two spaces.
 * Numbers align right, text left; a cell longer than its column's cap is cut and ends in
 * {@code ...}. Control characters in cells print as spaces, so every row stays one line.
 */
public final class TextTable {
  /** How a column aligns its cells. */
  public enum Align { LEFT, RIGHT }

  /** A column: its header, alignment and the widest a cell may print. */
  public record Column(String header, Align align, int maxWidth) {
    public Column {
      Objects.requireNonNull(header, "header");
      Objects.requireNonNull(align, "align");
      if (maxWidth < 4) {
        throw new IllegalArgumentException("a column must allow at least 4 characters");
      }
    }

    public static Column left(String header) {
      return new Column(header, Align.LEFT, DEFAULT_MAX_WIDTH);
    }

    public static Column right(String header) {
      return new Column(header, Align.RIGHT, DEFAULT_MAX_WIDTH);
    }

    public Column maxWidth(int width) {
      return new Column(header, align, width);
    }
  }

  public static final int DEFAULT_MAX_WIDTH = 60;
  static final String ELLIPSIS = "...";
  private static final String GAP = "  ";

  private final List<Column> columns;
  private final List<String[]> rows = new ArrayList<>();

  public TextTable(List<Column> columns) {
    if (columns.isEmpty()) {
      throw new IllegalArgumentException("a table needs at least one column");
    }
    this.columns = List.copyOf(columns);
  }

  public static TextTable of(Column... columns) {
    return new TextTable(Arrays.asList(columns));
  }

  /** Adds a row; each cell is shown with {@link String#valueOf(Object)}, null as empty. */
  public TextTable row(Object... cells) {
    if (cells.length != columns.size()) {
      throw new IllegalArgumentException("row has " + cells.length + " cells, the table has "
          + columns.size() + " columns");
    }
    String[] row = new String[cells.length];
    for (int i = 0; i < cells.length; i++) {
      row[i] = fit(cells[i] == null ? "" : clean(String.valueOf(cells[i])), columns.get(i).maxWidth());
    }
    rows.add(row);
    return this;
  }

  public int size() {
    return rows.size();
  }

  public boolean isEmpty() {
    return rows.isEmpty();
  }

  /** Prints the table; trailing spaces are trimmed from every line. */
  public void print(PrintWriter out) {
    int[] widths = new int[columns.size()];
    String[] headers = new String[columns.size()];
    for (int i = 0; i < columns.size(); i++) {
      headers[i] = fit(columns.get(i).header(), columns.get(i).maxWidth());
      widths[i] = headers[i].length();
    }
    for (String[] row : rows) {
      for (int i = 0; i < row.length; i++) {
        widths[i] = Math.max(widths[i], row[i].length());
      }
    }
    out.println(line(headers, widths));
    String[] rules = new String[columns.size()];
    for (int i = 0; i < rules.length; i++) {
      rules[i] = "-".repeat(widths[i]);
    }
    out.println(line(rules, widths));
    for (String[] row : rows) {
      out.println(line(row, widths));
    }
  }

  @Override
  public String toString() {
    java.io.StringWriter sw = new java.io.StringWriter();
    try (PrintWriter pw = new PrintWriter(sw)) {
      print(pw);
    }
    return sw.toString();
  }

  private String line(String[] cells, int[] widths) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < cells.length; i++) {
      if (i > 0) {
        sb.append(GAP);
      }
      String pad = " ".repeat(widths[i] - cells[i].length());
      if (columns.get(i).align() == Align.RIGHT) {
        sb.append(pad).append(cells[i]);
      } else {
        sb.append(cells[i]).append(pad);
      }
    }
    int end = sb.length();
    while (end > 0 && sb.charAt(end - 1) == ' ') {
      end--;
    }
    return sb.substring(0, end);
  }

  /** Cuts {@code s} to {@code max} characters, marking the cut with an ellipsis. */
  static String fit(String s, int max) {
    if (s.length() <= max) {
      return s;
    }
    int cut = max - ELLIPSIS.length();
    if (Character.isHighSurrogate(s.charAt(cut - 1))) {
      cut--; // never split a surrogate pair
    }
    return s.substring(0, cut) + ELLIPSIS;
  }

  /** Replaces line breaks, tabs and other control characters with spaces. */
  static String clean(String s) {
    StringBuilder sb = null;
    for (int i = 0; i < s.length(); i++) {
      if (Character.isISOControl(s.charAt(i))) {
        if (sb == null) {
          sb = new StringBuilder(s);
        }
        sb.setCharAt(i, ' ');
      }
    }
    return sb == null ? s : sb.toString();
  }
}
