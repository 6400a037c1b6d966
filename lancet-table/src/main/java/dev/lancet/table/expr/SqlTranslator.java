package dev.lancet.table.expr;

import dev.lancet.table.expr.Expr.ArithOp;
import dev.lancet.table.expr.Expr.CompareOp;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import net.sf.jsqlparser.JSQLParserException;
import net.sf.jsqlparser.expression.ArrayConstructor;
import net.sf.jsqlparser.expression.BinaryExpression;
import net.sf.jsqlparser.expression.BooleanValue;
import net.sf.jsqlparser.expression.CaseExpression;
import net.sf.jsqlparser.expression.CastExpression;
import net.sf.jsqlparser.expression.DoubleValue;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.Function;
import net.sf.jsqlparser.expression.HexValue;
import net.sf.jsqlparser.expression.IntervalExpression;
import net.sf.jsqlparser.expression.JdbcNamedParameter;
import net.sf.jsqlparser.expression.JdbcParameter;
import net.sf.jsqlparser.expression.LongValue;
import net.sf.jsqlparser.expression.NotExpression;
import net.sf.jsqlparser.expression.NullValue;
import net.sf.jsqlparser.expression.Parenthesis;
import net.sf.jsqlparser.expression.SignedExpression;
import net.sf.jsqlparser.expression.StringValue;
import net.sf.jsqlparser.expression.TimeKeyExpression;
import net.sf.jsqlparser.expression.TrimFunction;
import net.sf.jsqlparser.expression.operators.arithmetic.Addition;
import net.sf.jsqlparser.expression.operators.arithmetic.Concat;
import net.sf.jsqlparser.expression.operators.arithmetic.Division;
import net.sf.jsqlparser.expression.operators.arithmetic.IntegerDivision;
import net.sf.jsqlparser.expression.operators.arithmetic.Modulo;
import net.sf.jsqlparser.expression.operators.arithmetic.Multiplication;
import net.sf.jsqlparser.expression.operators.arithmetic.Subtraction;
import net.sf.jsqlparser.expression.operators.conditional.AndExpression;
import net.sf.jsqlparser.expression.operators.conditional.OrExpression;
import net.sf.jsqlparser.expression.operators.conditional.XorExpression;
import net.sf.jsqlparser.expression.operators.relational.Between;
import net.sf.jsqlparser.expression.operators.relational.ComparisonOperator;
import net.sf.jsqlparser.expression.operators.relational.EqualsTo;
import net.sf.jsqlparser.expression.operators.relational.ExistsExpression;
import net.sf.jsqlparser.expression.operators.relational.ExpressionList;
import net.sf.jsqlparser.expression.operators.relational.GreaterThan;
import net.sf.jsqlparser.expression.operators.relational.GreaterThanEquals;
import net.sf.jsqlparser.expression.operators.relational.InExpression;
import net.sf.jsqlparser.expression.operators.relational.IsBooleanExpression;
import net.sf.jsqlparser.expression.operators.relational.IsDistinctExpression;
import net.sf.jsqlparser.expression.operators.relational.IsNullExpression;
import net.sf.jsqlparser.expression.operators.relational.IsUnknownExpression;
import net.sf.jsqlparser.expression.operators.relational.LikeExpression;
import net.sf.jsqlparser.expression.operators.relational.MinorThan;
import net.sf.jsqlparser.expression.operators.relational.MinorThanEquals;
import net.sf.jsqlparser.expression.operators.relational.NotEqualsTo;
import net.sf.jsqlparser.expression.operators.relational.ParenthesedExpressionList;
import net.sf.jsqlparser.parser.ASTNodeAccess;
import net.sf.jsqlparser.parser.CCJSqlParserUtil;
import net.sf.jsqlparser.parser.Token;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.statement.select.ParenthesedSelect;
import net.sf.jsqlparser.statement.select.Select;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * Parses SQL text with JSqlParser and translates its AST into {@link Expr}, following how
 * lance-core's planner reads the same text (lance-format/lance {@code
 * rust/lance-datafusion/src/planner.rs}, {@code Planner::parse_sql_expr}; read at commit
 * 1c6f1c1b0c7066bda2dacf84b88ba6cd72805681):
 *
 * <ul>
 *   <li>{@code "text"} is a string literal, not an identifier; {@code `name`} is an identifier
 *       matched exactly; a bare identifier matches a column exactly, else case-insensitively.
 *   <li>{@code ==} means {@code =}.
 *   <li>An integer literal is int64, or float64 when it does not fit (lance-core 7.0.0 does not
 *       try uint64); a literal with a fraction or exponent is float64, never a decimal.
 *   <li>{@code date '...'} and {@code timestamp '...'} are casts of the string.
 *   <li>LIKE accepts only the backslash as escape character (lance-core 7.0.0 fails at execution
 *       on any other).
 * </ul>
 *
 * Everything else is refused with the construct's name and column.
 */
final class SqlTranslator {

  private static final Pattern POSITION = Pattern.compile("line (\\d+), column (\\d+)");
  private static final Pattern TYPE =
      Pattern.compile(
          "^\\s*([A-Z_]+(?:\\s+[A-Z_]+)*?)\\s*(?:\\(\\s*(\\d+)\\s*(?:,\\s*(\\d+)\\s*)?\\))?"
              + "\\s*(UNSIGNED)?\\s*$");

  private final String source;

  private SqlTranslator(String source) {
    this.source = source;
  }

  /** Parses a filter (a boolean condition). */
  static Expr parseFilter(String sql) {
    return parse(sql, true);
  }

  /** Parses a value expression (the right side of {@code SET col = ...}). */
  static Expr parseValue(String sql) {
    return parse(sql, false);
  }

  private static Expr parse(String sql, boolean condition) {
    if (sql == null || sql.isBlank()) {
      throw new ExpressionException(
          ExpressionException.Kind.SYNTAX,
          Position.UNKNOWN,
          "empty " + (condition ? "filter" : "expression") + ": give a SQL "
              + (condition ? "condition such as \"id > 5\"" : "expression such as \"x + 1\""));
    }
    ExprLimits.checkText(sql);
    String text = doubleEqualsAsEquals(sql);
    Expression parsed;
    try {
      parsed =
          condition
              ? CCJSqlParserUtil.parseCondExpression(text, false)
              : CCJSqlParserUtil.parseExpression(text, false);
    } catch (StackOverflowError e) {
      throw ExprLimits.tooDeepToParse(sql);
    } catch (JSQLParserException | RuntimeException e) {
      String detail = rootMessage(e);
      Matcher m = POSITION.matcher(detail);
      Position at =
          m.find()
              ? new Position(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)))
              : Position.UNKNOWN;
      String firstLine = detail.lines().findFirst().orElse(detail).strip();
      throw new ExpressionException(
          ExpressionException.Kind.SYNTAX,
          at,
          "cannot parse " + (condition ? "filter" : "expression") + " \""
              + ExprLimits.echo(sql) + "\": "
              + firstLine
              + " (one SQL expression is expected; strings are quoted with ', identifiers"
              + " with `)",
          e);
    }
    Expr expr;
    try {
      expr = new SqlTranslator(sql).translate(parsed);
    } catch (StackOverflowError e) {
      throw ExprLimits.tooDeepToParse(sql);
    }
    ExprLimits.check(expr, sql);
    return expr;
  }

  private static String rootMessage(Throwable e) {
    String best = String.valueOf(e.getMessage());
    for (Throwable c = e.getCause(); c != null; c = c.getCause()) {
      if (c.getMessage() != null) {
        best = c.getMessage();
      }
    }
    return best;
  }

  /**
   * Lance accepts {@code ==} for equality (PyArrow's spelling); JSqlParser does not. Rewrites
   * each {@code ==} outside quotes to {@code = } so positions in messages stay right.
   */
  static String doubleEqualsAsEquals(String sql) {
    StringBuilder out = new StringBuilder(sql.length());
    char quote = 0;
    for (int i = 0; i < sql.length(); i++) {
      char c = sql.charAt(i);
      if (quote != 0) {
        if (c == quote) {
          quote = 0;
        }
        out.append(c);
      } else if (c == '\'' || c == '"' || c == '`') {
        quote = c;
        out.append(c);
      } else if (c == '=' && i + 1 < sql.length() && sql.charAt(i + 1) == '='
          && (i == 0 || "<>!".indexOf(sql.charAt(i - 1)) < 0)) {
        out.append("= ");
        i++;
      } else {
        out.append(c);
      }
    }
    return out.toString();
  }

  // ---------------------------------------------------------------------------------------------

  private Expr translate(Expression e) {
    Position at = position(e);
    if (e instanceof Parenthesis p) {
      return translate(p.getExpression());
    }
    if (e instanceof ParenthesedExpressionList<?> list) {
      if (list.size() == 1) {
        return translate(list.get(0));
      }
      throw ExpressionException.unsupported("row value " + e, at, "use one expression");
    }
    if (e instanceof Column c) {
      return column(c, at);
    }
    if (e instanceof LongValue v) {
      return new Expr.Literal(number(v.getStringValue(), false), at);
    }
    if (e instanceof DoubleValue v) {
      return new Expr.Literal(new Scalar(Types.FLOAT64, v.getValue()), at);
    }
    if (e instanceof StringValue v) {
      if (v.getPrefix() != null) {
        throw ExpressionException.unsupported(
            "string literal with prefix " + v.getPrefix() + " (" + e + ")", at,
            "write a plain '...' string");
      }
      return new Expr.Literal(new Scalar(Types.UTF8, v.getNotExcapedValue()), at);
    }
    if (e instanceof HexValue v) {
      return new Expr.Literal(new Scalar(Types.BINARY, hex(v.getValue(), at)), at);
    }
    if (e instanceof BooleanValue v) {
      return new Expr.Literal(new Scalar(Types.BOOL, v.getValue()), at);
    }
    if (e instanceof NullValue) {
      return new Expr.Literal(Scalar.NULL, at);
    }
    if (e instanceof SignedExpression s) {
      return signed(s, at);
    }
    if (e instanceof NotExpression n) {
      if (n.isExclamationMark()) {
        throw ExpressionException.unsupported("'!' (" + e + ")", at, "write NOT");
      }
      return new Expr.Not(translate(n.getExpression()), at);
    }
    if (e instanceof AndExpression a) {
      return new Expr.And(translate(a.getLeftExpression()), translate(a.getRightExpression()), at);
    }
    if (e instanceof OrExpression o) {
      return new Expr.Or(translate(o.getLeftExpression()), translate(o.getRightExpression()), at);
    }
    if (e instanceof XorExpression) {
      throw ExpressionException.unsupported("XOR (" + e + ")", at, "write (a OR b) AND NOT (a AND b)");
    }
    if (e instanceof ComparisonOperator c) {
      return compare(c, at);
    }
    if (e instanceof Addition b) {
      return arith(ArithOp.ADD, b, at);
    }
    if (e instanceof Subtraction b) {
      return arith(ArithOp.SUB, b, at);
    }
    if (e instanceof Multiplication b) {
      return arith(ArithOp.MUL, b, at);
    }
    if (e instanceof Division b) {
      return arith(ArithOp.DIV, b, at);
    }
    if (e instanceof Modulo b) {
      return arith(ArithOp.MOD, b, at);
    }
    if (e instanceof IntegerDivision) {
      throw ExpressionException.unsupported("DIV (" + e + ")", at,
          "'/' on integers already divides as integers");
    }
    if (e instanceof Concat b) {
      return new Expr.Concat(
          translate(b.getLeftExpression()), translate(b.getRightExpression()), at);
    }
    if (e instanceof IsNullExpression n) {
      return new Expr.IsNull(translate(n.getLeftExpression()), n.isNot(), at);
    }
    if (e instanceof IsBooleanExpression b) {
      return new Expr.IsBool(translate(b.getLeftExpression()), b.isTrue(), b.isNot(), at);
    }
    if (e instanceof IsDistinctExpression d) {
      return new Expr.IsDistinct(
          translate(d.getLeftExpression()), translate(d.getRightExpression()), d.isNot(), at);
    }
    if (e instanceof InExpression in) {
      return in(in, at);
    }
    if (e instanceof Between b) {
      return new Expr.Between(
          translate(b.getLeftExpression()),
          translate(b.getBetweenExpressionStart()),
          translate(b.getBetweenExpressionEnd()),
          b.isNot(),
          at);
    }
    if (e instanceof LikeExpression l) {
      return like(l, at);
    }
    if (e instanceof CastExpression c) {
      return cast(c, at);
    }
    if (e instanceof Function f) {
      return function(f, at);
    }
    throw ExpressionException.unsupported(construct(e) + " (" + e + ")", at, "");
  }

  /** A human name for a JSqlParser node Lance filters do not support. */
  private static String construct(Expression e) {
    if (e instanceof ParenthesedSelect || e instanceof Select) {
      return "subquery";
    }
    if (e instanceof ExistsExpression) {
      return "EXISTS";
    }
    if (e instanceof CaseExpression) {
      return "CASE expression";
    }
    if (e instanceof TrimFunction) {
      return "TRIM";
    }
    if (e instanceof IntervalExpression) {
      return "INTERVAL literal";
    }
    if (e instanceof JdbcParameter || e instanceof JdbcNamedParameter) {
      return "query parameter";
    }
    if (e instanceof TimeKeyExpression) {
      return "time keyword";
    }
    if (e instanceof IsUnknownExpression) {
      return "IS UNKNOWN";
    }
    if (e instanceof ArrayConstructor) {
      return "array literal";
    }
    if (e instanceof BinaryExpression b) {
      return "operator " + b.getStringExpression();
    }
    // SomeExpression -> "some expression"
    String name = e.getClass().getSimpleName().replaceAll("([a-z])([A-Z])", "$1 $2");
    return name.toLowerCase(Locale.ROOT);
  }

  private Expr column(Column c, Position at) {
    String qualified = c.getTable() == null || c.getTable().getFullyQualifiedName().isEmpty()
        ? c.getColumnName()
        : c.getTable().getFullyQualifiedName() + "." + c.getColumnName();
    List<String> raw = splitName(qualified, at);
    boolean exact = raw.get(0).startsWith("`");
    if (raw.size() == 1 && raw.get(0).startsWith("\"")) {
      // Lance: a double-quoted "identifier" is a string literal.
      return new Expr.Literal(new Scalar(Types.UTF8, unquote(raw.get(0))), at);
    }
    List<String> path = new ArrayList<>();
    for (String part : raw) {
      path.add(unquote(part));
    }
    ArrayConstructor subscript = c.getArrayConstructor();
    if (subscript != null) {
      for (Expression index : subscript.getExpressions()) {
        if (index instanceof StringValue s) {
          path.add(s.getNotExcapedValue());
        } else {
          throw ExpressionException.unsupported(
              "list index " + c, at, "only struct fields can be accessed, as x.y or x['y']");
        }
      }
    }
    return new Expr.ColumnRef(path, exact, at);
  }

  /** Splits {@code a.`b.c`."d"} into its parts, keeping each part's quotes. */
  private static List<String> splitName(String name, Position at) {
    List<String> parts = new ArrayList<>();
    StringBuilder cur = new StringBuilder();
    char quote = 0;
    for (int i = 0; i < name.length(); i++) {
      char ch = name.charAt(i);
      if (quote != 0) {
        cur.append(ch);
        if (ch == quote) {
          quote = 0;
        }
      } else if (ch == '`' || ch == '"') {
        quote = ch;
        cur.append(ch);
      } else if (ch == '.') {
        parts.add(cur.toString());
        cur.setLength(0);
      } else {
        cur.append(ch);
      }
    }
    parts.add(cur.toString());
    for (String p : parts) {
      if (p.isEmpty()) {
        throw new ExpressionException(
            ExpressionException.Kind.SYNTAX, at, "empty name part in " + name + at.describe());
      }
    }
    return parts;
  }

  private static String unquote(String part) {
    if (part.length() >= 2
        && (part.charAt(0) == '`' || part.charAt(0) == '"')
        && part.charAt(part.length() - 1) == part.charAt(0)) {
      String q = String.valueOf(part.charAt(0));
      return part.substring(1, part.length() - 1).replace(q + q, q);
    }
    return part;
  }

  /** Lance's number rule: int64 if it fits, else float64 (lance-core 7.0.0 skips uint64). */
  private static Scalar number(String text, boolean negative) {
    String t = negative ? "-" + text : text;
    try {
      BigInteger v = new BigInteger(t);
      if (v.bitLength() < 64) {
        return Scalar.ofLong(Types.INT64, v.longValue());
      }
      return new Scalar(Types.FLOAT64, v.doubleValue());
    } catch (NumberFormatException e) {
      return new Scalar(Types.FLOAT64, Double.parseDouble(t));
    }
  }

  private static byte[] hex(String literal, Position at) {
    // X'0100' or 0x0100
    String digits = literal;
    if (digits.length() >= 3 && (digits.charAt(0) == 'X' || digits.charAt(0) == 'x')
        && digits.charAt(1) == '\'') {
      digits = digits.substring(2, digits.length() - 1);
    } else if (digits.startsWith("0x") || digits.startsWith("0X")) {
      digits = digits.substring(2);
    }
    if (digits.length() % 2 == 1) {
      digits = "0" + digits;
    }
    try {
      return HexFormat.of().parseHex(digits);
    } catch (IllegalArgumentException e) {
      throw new ExpressionException(
          ExpressionException.Kind.SYNTAX, at, "not a hex literal: " + literal + at.describe());
    }
  }

  private Expr signed(SignedExpression s, Position at) {
    Expression inner = s.getExpression();
    if (s.getSign() == '-') {
      // Lance folds a minus before a number into the literal (-5 is an int64 literal).
      if (inner instanceof LongValue v) {
        return new Expr.Literal(number(v.getStringValue(), true), at);
      }
      if (inner instanceof DoubleValue v) {
        return new Expr.Literal(new Scalar(Types.FLOAT64, -v.getValue()), at);
      }
      return new Expr.Negate(translate(inner), at);
    }
    throw ExpressionException.unsupported(
        "unary '" + s.getSign() + "' (" + s + ")", at,
        s.getSign() == '+' ? "drop the '+'" : "");
  }

  private Expr compare(ComparisonOperator c, Position at) {
    if (c.getOldOracleJoinSyntax() != 0 || c.getOraclePriorPosition() != 0) {
      throw ExpressionException.unsupported("Oracle join syntax (" + c + ")", at, "");
    }
    CompareOp op;
    if (c instanceof EqualsTo) {
      op = CompareOp.EQ;
    } else if (c instanceof NotEqualsTo) {
      op = CompareOp.NE;
    } else if (c instanceof MinorThan) {
      op = CompareOp.LT;
    } else if (c instanceof MinorThanEquals) {
      op = CompareOp.LE;
    } else if (c instanceof GreaterThan) {
      op = CompareOp.GT;
    } else if (c instanceof GreaterThanEquals) {
      op = CompareOp.GE;
    } else {
      throw ExpressionException.unsupported("operator " + c.getStringExpression()
          + " (" + c + ")", at, "");
    }
    if (c.getRightExpression() instanceof ParenthesedSelect
        || c.getLeftExpression() instanceof ParenthesedSelect) {
      Expression sub = c.getRightExpression() instanceof ParenthesedSelect
          ? c.getRightExpression() : c.getLeftExpression();
      throw ExpressionException.unsupported("subquery " + sub, position(sub), "");
    }
    return new Expr.Compare(
        op, translate(c.getLeftExpression()), translate(c.getRightExpression()), at);
  }

  private Expr arith(ArithOp op, BinaryExpression b, Position at) {
    return new Expr.Arith(op, translate(b.getLeftExpression()), translate(b.getRightExpression()),
        at);
  }

  private Expr in(InExpression in, Position at) {
    if (in.getOldOracleJoinSyntax() != 0) {
      throw ExpressionException.unsupported("Oracle join syntax (" + in + ")", at, "");
    }
    if (in.isGlobal()) {
      throw ExpressionException.unsupported("GLOBAL IN (" + in + ")", at, "");
    }
    Expression right = in.getRightExpression();
    if (right instanceof ParenthesedSelect || right instanceof Select) {
      throw ExpressionException.unsupported("subquery " + right, position(right),
          "list the values: x IN (1, 2, 3)");
    }
    if (!(right instanceof ExpressionList<?> list)) {
      throw ExpressionException.unsupported("IN " + right, position(right),
          "list the values: x IN (1, 2, 3)");
    }
    List<Expr> items = new ArrayList<>();
    for (Expression item : list) {
      if (item instanceof ParenthesedSelect || item instanceof Select) {
        throw ExpressionException.unsupported("subquery " + item, position(item), "");
      }
      items.add(translate(item));
    }
    if (items.isEmpty()) {
      throw new ExpressionException(
          ExpressionException.Kind.SYNTAX, at, "IN () needs at least one value" + at.describe());
    }
    return new Expr.InList(translate(in.getLeftExpression()), items, in.isNot(), at);
  }

  private Expr like(LikeExpression l, Position at) {
    boolean ci;
    switch (l.getLikeKeyWord()) {
      case LIKE -> ci = false;
      case ILIKE -> ci = true;
      default -> throw ExpressionException.unsupported(
          l.getLikeKeyWord().toString().replace('_', ' ') + " (" + l + ")", at,
          "use LIKE or ILIKE");
    }
    if (l.isUseBinary()) {
      throw ExpressionException.unsupported("LIKE BINARY (" + l + ")", at, "");
    }
    Expression escape = l.getEscape();
    if (escape != null) {
      if (!(escape instanceof StringValue s) || s.getNotExcapedValue().codePointCount(
          0, s.getNotExcapedValue().length()) != 1) {
        throw new ExpressionException(
            ExpressionException.Kind.SYNTAX, position(escape),
            "the ESCAPE of a LIKE must be one character in quotes, got " + escape
                + position(escape).describe());
      }
      if (!s.getNotExcapedValue().equals("\\")) {
        throw ExpressionException.unsupported(
            "LIKE ... ESCAPE " + escape, position(escape),
            "Lance accepts only the backslash as escape character (the default): write \\% "
                + "for a literal % and \\_ for a literal _");
      }
    }
    return new Expr.Like(
        translate(l.getLeftExpression()), translate(l.getRightExpression()), ci, l.isNot(), at);
  }

  private Expr cast(CastExpression c, Position at) {
    if (c.getColumnDefinitions() != null && !c.getColumnDefinitions().isEmpty()) {
      throw ExpressionException.unsupported("CAST to a row type (" + c + ")", at, "");
    }
    if (c.getFormat() != null) {
      throw ExpressionException.unsupported("CAST ... FORMAT (" + c + ")", at, "");
    }
    String keyword = c.keyword == null ? "" : c.keyword.toUpperCase(Locale.ROOT);
    boolean safe;
    switch (keyword) {
      case "" , "CAST" -> safe = false;
      case "TRY_CAST", "SAFE_CAST" -> safe = true;
      default -> throw ExpressionException.unsupported(keyword + " (" + c + ")", at,
          "use CAST or TRY_CAST");
    }
    ArrowType target = type(c.getColDataType().toString(), at);
    Expression inner = c.getLeftExpression();
    if (c.keyword == null && c.isUseCastKeyword() && !(inner instanceof StringValue)) {
      throw ExpressionException.unsupported("typed literal " + c, at,
          "the value of date '...' or timestamp '...' must be a quoted string");
    }
    return new Expr.Cast(translate(inner), target, safe, at);
  }

  /**
   * The types Lance's planner can cast to ({@code Planner::parse_type}): TINYINT, SMALLINT,
   * INT/INTEGER, BIGINT (each optionally UNSIGNED), FLOAT (float32), DOUBLE, STRING, BINARY, DATE,
   * TIMESTAMP(p)/DATETIME(p) for p in 0, 3, 6, 9 (default 6, no time zone), DECIMAL(p, s),
   * BOOLEAN.
   */
  static ArrowType type(String written, Position at) {
    Matcher m = TYPE.matcher(written.toUpperCase(Locale.ROOT));
    String hint = "Lance casts to TINYINT, SMALLINT, INT, BIGINT [UNSIGNED], FLOAT, DOUBLE, "
        + "STRING, BINARY, DATE, TIMESTAMP(0|3|6|9), DATETIME(0|3|6|9), DECIMAL(p, s), BOOLEAN";
    if (!m.matches()) {
      throw ExpressionException.unsupported("type " + written, at, hint);
    }
    String name = m.group(1).replaceAll("\\s+", " ");
    Integer p = m.group(2) == null ? null : Integer.valueOf(m.group(2));
    Integer s = m.group(3) == null ? null : Integer.valueOf(m.group(3));
    boolean unsigned = m.group(4) != null;
    boolean noArgs = p == null;
    ArrowType t =
        switch (name) {
          case "TINYINT" -> unsigned ? Types.UINT8 : Types.INT8;
          case "SMALLINT" -> unsigned ? Types.UINT16 : Types.INT16;
          case "INT", "INTEGER" -> unsigned ? Types.UINT32 : Types.INT32;
          case "BIGINT" -> unsigned ? Types.UINT64 : Types.INT64;
          case "FLOAT" -> unsigned ? null : Types.FLOAT32;
          case "DOUBLE" -> noArgs && !unsigned ? Types.FLOAT64 : null;
          case "STRING" -> noArgs && !unsigned ? Types.UTF8 : null;
          case "BINARY" -> !unsigned ? Types.BINARY : null;
          case "BOOLEAN" -> noArgs && !unsigned ? Types.BOOL : null;
          case "DATE" -> noArgs && !unsigned ? Types.DATE32 : null;
          case "TIMESTAMP", "DATETIME" -> {
            if (unsigned || s != null) {
              yield null;
            }
            TimeUnit unit =
                p == null ? TimeUnit.MICROSECOND
                    : switch (p) {
                      case 0 -> TimeUnit.SECOND;
                      case 3 -> TimeUnit.MILLISECOND;
                      case 6 -> TimeUnit.MICROSECOND;
                      case 9 -> TimeUnit.NANOSECOND;
                      default -> null;
                    };
            yield unit == null ? null : Types.timestamp(unit, null);
          }
          case "DECIMAL" -> {
            if (p == null || s == null || unsigned) {
              throw ExpressionException.unsupported("type " + written, at,
                  "give DECIMAL a precision and a scale, as DECIMAL(10, 2)");
            }
            if (p < 1 || p > 38 || s > p) {
              throw ExpressionException.unsupported("type " + written, at,
                  "DECIMAL precision is 1..38 and the scale at most the precision");
            }
            yield Types.decimal(p, s);
          }
          default -> null;
        };
    if (t == null) {
      throw ExpressionException.unsupported("type " + written, at, hint);
    }
    return t;
  }

  private Expr function(Function f, Position at) {
    if (f.isDistinct() || f.isAllColumns() || f.isUnique() || f.getNamedParameters() != null
        || f.getKeep() != null || f.getAttribute() != null || f.isEscaped()
        || f.getOrderByElements() != null) {
      throw ExpressionException.unsupported("function call " + f, at,
          "call a scalar function with plain arguments, as lower(name)");
    }
    List<Expr> args = new ArrayList<>();
    ExpressionList<?> params = f.getParameters();
    if (params != null) {
      for (Expression p : params) {
        args.add(translate(p));
      }
    }
    return new Expr.Call(f.getName(), args, at);
  }

  // ---------------------------------------------------------------------------------------------
  // Positions
  // ---------------------------------------------------------------------------------------------

  private Position position(Expression e) {
    if (e.getASTNode() != null) {
      ASTNodeAccess a = e;
      Token t = a.getASTNode().jjtGetFirstToken();
      if (t != null && t.beginLine > 0) {
        return new Position(t.beginLine, t.beginColumn);
      }
    }
    if (e instanceof BinaryExpression b) {
      return position(b.getLeftExpression());
    }
    if (e instanceof IsNullExpression n) {
      return position(n.getLeftExpression());
    }
    if (e instanceof IsBooleanExpression n) {
      return position(n.getLeftExpression());
    }
    if (e instanceof InExpression n) {
      return position(n.getLeftExpression());
    }
    if (e instanceof Between n) {
      return position(n.getLeftExpression());
    }
    // Fall back to finding the node's text.
    int i = source.toLowerCase(Locale.ROOT).indexOf(e.toString().toLowerCase(Locale.ROOT));
    if (i < 0) {
      return Position.UNKNOWN;
    }
    int line = 1;
    int col = 1;
    for (int k = 0; k < i; k++) {
      if (source.charAt(k) == '\n') {
        line++;
        col = 1;
      } else {
        col++;
      }
    }
    return new Position(line, col);
  }
}
