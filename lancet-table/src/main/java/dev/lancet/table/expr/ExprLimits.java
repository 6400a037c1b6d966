package dev.lancet.table.expr;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;

/**
 * The size a SQL expression may have: at most {@link #MAX_DEPTH} levels of nesting (a chain of
 * {@code a + b + c ...} or {@code x OR y OR z ...} nests one level per operator) and
 * {@link #MAX_NODES} parts. Binding and evaluation walk an expression recursively, so a deeper
 * one would overflow the stack of whichever thread evaluates it; the limits are checked once,
 * right after parsing, without recursion. A long OR chain of equalities is an IN list.
 */
public final class ExprLimits {
  static final int MAX_DEPTH = 500;
  static final int MAX_NODES = 100_000;
  /**
   * Checked on the text before parsing: the SQL parser's time grows with nesting and length
   * (a second for a hundred nested parentheses on a busy machine), so a filter may have at most
   * this many characters and levels of parentheses.
   */
  static final int MAX_CHARS = 100_000;
  static final int MAX_PARENTHESES = 64;
  /** The most characters of an expression echoed in an error message. */
  static final int ECHO_CHARS = 200;

  private ExprLimits() {}

  static void check(Expr root, String sql) {
    Deque<Expr> stack = new ArrayDeque<>();
    Deque<Integer> depths = new ArrayDeque<>();
    stack.push(root);
    depths.push(1);
    int nodes = 0;
    while (!stack.isEmpty()) {
      Expr e = stack.pop();
      int depth = depths.pop();
      if (depth > MAX_DEPTH) {
        throw tooLarge(sql, "it nests more than " + MAX_DEPTH + " levels deep");
      }
      if (++nodes > MAX_NODES) {
        throw tooLarge(sql, "it has more than " + MAX_NODES + " parts");
      }
      for (Expr c : children(e)) {
        stack.push(c);
        depths.push(depth + 1);
      }
    }
  }

  /** Refuses text too long or too deeply parenthesized to parse in reasonable time. */
  static void checkText(String sql) {
    if (sql.length() > MAX_CHARS) {
      throw tooLarge(sql, "it is " + sql.length() + " characters long, more than " + MAX_CHARS);
    }
    int depth = 0;
    char quote = 0;
    for (int i = 0; i < sql.length(); i++) {
      char c = sql.charAt(i);
      if (quote != 0) {
        if (c == quote) {
          quote = 0;
        }
      } else if (c == '\'' || c == '"' || c == '`') {
        quote = c;
      } else if (c == '(' && ++depth > MAX_PARENTHESES) {
        throw tooLarge(sql, "it nests parentheses more than " + MAX_PARENTHESES + " deep");
      } else if (c == ')') {
        depth--;
      }
    }
  }

  /** The error for an expression the parser itself could not hold (its stack overflowed). */
  static ExpressionException tooDeepToParse(String sql) {
    return tooLarge(sql, "it nests too deeply to parse");
  }

  private static ExpressionException tooLarge(String sql, String why) {
    return new ExpressionException(ExpressionException.Kind.UNSUPPORTED, Position.UNKNOWN,
        "the expression \"" + echo(sql) + "\" is too large: " + why + " (Lancet takes at most "
            + MAX_DEPTH + " levels, " + MAX_PARENTHESES + " levels of parentheses, " + MAX_NODES
            + " parts and " + MAX_CHARS + " characters; write a long chain of ORs of "
            + "one column as an IN list, and split a huge expression)");
  }

  /** {@code sql}, cut to its first {@link #ECHO_CHARS} characters when longer. */
  public static String echo(String sql) {
    return sql.length() <= ECHO_CHARS ? sql
        : sql.substring(0, ECHO_CHARS) + "... (" + sql.length() + " characters)";
  }

  private static List<Expr> children(Expr e) {
    if (e instanceof Expr.Negate n) {
      return List.of(n.operand());
    } else if (e instanceof Expr.Not n) {
      return List.of(n.operand());
    } else if (e instanceof Expr.And a) {
      return List.of(a.left(), a.right());
    } else if (e instanceof Expr.Or o) {
      return List.of(o.left(), o.right());
    } else if (e instanceof Expr.Compare c) {
      return List.of(c.left(), c.right());
    } else if (e instanceof Expr.Arith a) {
      return List.of(a.left(), a.right());
    } else if (e instanceof Expr.Concat c) {
      return List.of(c.left(), c.right());
    } else if (e instanceof Expr.IsNull i) {
      return List.of(i.operand());
    } else if (e instanceof Expr.IsBool i) {
      return List.of(i.operand());
    } else if (e instanceof Expr.IsDistinct d) {
      return List.of(d.left(), d.right());
    } else if (e instanceof Expr.InList l) {
      java.util.ArrayList<Expr> out = new java.util.ArrayList<>(l.items());
      out.add(l.operand());
      return out;
    } else if (e instanceof Expr.Between b) {
      return List.of(b.operand(), b.low(), b.high());
    } else if (e instanceof Expr.Like l) {
      return List.of(l.operand(), l.pattern());
    } else if (e instanceof Expr.Cast c) {
      return List.of(c.operand());
    } else if (e instanceof Expr.Call c) {
      return c.args();
    }
    return List.of(); // a column or a literal
  }
}
