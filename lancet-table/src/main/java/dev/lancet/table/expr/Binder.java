package dev.lancet.table.expr;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Binds an {@link Expr} to an Arrow schema in two passes, as lance-core does:
 *
 * <ol>
 *   <li><b>Lance's literal resolution</b> (lance-format/lance {@code
 *       rust/lance-datafusion/src/logical_expr.rs}, {@code resolve_expr}; commit
 *       067d6f22eea73f870a15e786795aa314ac7ceb99): in the filter's top level and under AND/OR
 *       only, a literal compared with (or combined with) a column, in a BETWEEN on a column, or
 *       in an IN list on a top-level column is converted to the column's type, and it is an
 *       error when it does not convert losslessly ({@code i32 > 2.5}, {@code i8 = 300}, {@code
 *       d = '2024-01-02'}, {@code dec = 1.5}). Literal-only arithmetic on the right takes the
 *       column's type too ({@code i8 = 100 + 100} is int8 arithmetic, wrapping).
 *   <li><b>DataFusion's coercion</b> for everything else: integers widen, integers meet floats
 *       as float (float32 only when no float64 is involved), integers meet decimals as decimals,
 *       date meets timestamp as timestamp, timestamps of different units meet at the coarser
 *       unit, a naive timestamp meets a zoned one as wall-clock time in that zone. Pairs
 *       DataFusion would coerce through text (a string with a number or a date) are refused:
 *       write a typed literal or a CAST.
 * </ol>
 *
 * Constant subtrees are folded here (so {@code 1 / 0} fails when binding, as lance-core fails
 * when planning).
 */
final class Binder {

  private final Schema schema;

  private Binder(Schema schema) {
    this.schema = schema;
  }

  static Bound bindFilter(Expr e, Schema schema) {
    Binder b = new Binder(schema);
    Bound bound = b.bind(b.resolve(e));
    if (Types.isNull(bound.type())) {
      throw ExpressionException.type(e.at(),
          "the filter is NULL, not a condition (lance-core: \"does not return a boolean\")");
    }
    if (!Types.isBool(bound.type())) {
      throw ExpressionException.type(e.at(), "the filter is a " + Types.describe(bound.type())
          + " value, not a condition: compare it, as x > 0");
    }
    return bound;
  }

  static Bound bindValue(Expr e, Schema schema) {
    Binder b = new Binder(schema);
    return b.bind(b.resolve(e));
  }

  // ---------------------------------------------------------------------------------------------
  // Pass 1: Lance's literal resolution
  // ---------------------------------------------------------------------------------------------

  private Expr resolve(Expr e) {
    if (e instanceof Expr.And a) {
      return new Expr.And(resolve(a.left()), resolve(a.right()), a.at());
    }
    if (e instanceof Expr.Or o) {
      return new Expr.Or(resolve(o.left()), resolve(o.right()), o.at());
    }
    if (e instanceof Expr.Between b) {
      Optional<ArrowType> t = fieldType(b.operand());
      if (t.isPresent()) {
        return new Expr.Between(b.operand(), coerceLiterals(b.low(), t.get(), b.operand()),
            coerceLiterals(b.high(), t.get(), b.operand()), b.negated(), b.at());
      }
      return e;
    }
    if (e instanceof Expr.InList in) {
      if (in.operand() instanceof Expr.ColumnRef c && c.path().size() == 1) {
        Optional<ArrowType> t = fieldType(c);
        if (t.isPresent()) {
          List<Expr> items = new ArrayList<>();
          for (Expr item : in.items()) {
            items.add(coerceLiterals(item, t.get(), c));
          }
          return new Expr.InList(in.operand(), items, in.negated(), in.at());
        }
      }
      return e;
    }
    Expr[] lr = binaryOperands(e);
    if (lr == null) {
      return e;
    }
    Expr l = lr[0];
    Expr r = lr[1];
    Optional<ArrowType> lt = fieldType(l);
    if (lt.isPresent()) {
      if (r instanceof Expr.Literal || r instanceof Expr.Cast || literalOnly(r)) {
        return withOperands(e, l, coerceLiterals(r, lt.get(), l));
      }
      return e;
    }
    Optional<ArrowType> rt = fieldType(r);
    if (rt.isPresent() && (l instanceof Expr.Literal || l instanceof Expr.Cast)) {
      return withOperands(e, coerceLiterals(l, rt.get(), r), r);
    }
    return e;
  }

  /** The two operands of a binary node (DataFusion's BinaryExpr), else null. */
  private static Expr[] binaryOperands(Expr e) {
    if (e instanceof Expr.Compare c) {
      return new Expr[] {c.left(), c.right()};
    }
    if (e instanceof Expr.Arith a) {
      return new Expr[] {a.left(), a.right()};
    }
    if (e instanceof Expr.Concat c) {
      return new Expr[] {c.left(), c.right()};
    }
    if (e instanceof Expr.IsDistinct d) {
      return new Expr[] {d.left(), d.right()};
    }
    if (e instanceof Expr.And a) {
      return new Expr[] {a.left(), a.right()};
    }
    if (e instanceof Expr.Or o) {
      return new Expr[] {o.left(), o.right()};
    }
    return null;
  }

  private static Expr withOperands(Expr e, Expr l, Expr r) {
    if (e instanceof Expr.Compare c) {
      return new Expr.Compare(c.op(), l, r, c.at());
    }
    if (e instanceof Expr.Arith a) {
      return new Expr.Arith(a.op(), l, r, a.at());
    }
    if (e instanceof Expr.Concat c) {
      return new Expr.Concat(l, r, c.at());
    }
    if (e instanceof Expr.IsDistinct d) {
      return new Expr.IsDistinct(l, r, d.negated(), d.at());
    }
    if (e instanceof Expr.And a) {
      return new Expr.And(l, r, a.at());
    }
    Expr.Or o = (Expr.Or) e;
    return new Expr.Or(l, r, o.at());
  }

  /** Lance's {@code is_literal_only_same_type_expr}: arithmetic or || over literals only. */
  private static boolean literalOnly(Expr e) {
    if (e instanceof Expr.Literal) {
      return true;
    }
    if (e instanceof Expr.Arith a) {
      return literalOnly(a.left()) && literalOnly(a.right());
    }
    if (e instanceof Expr.Concat c) {
      return literalOnly(c.left()) && literalOnly(c.right());
    }
    return false;
  }

  /** Lance's {@code coerce_expr}: every literal reachable through binary nodes takes {@code t}. */
  private Expr coerceLiterals(Expr e, ArrowType t, Expr column) {
    if (e instanceof Expr.Literal lit) {
      Scalar s = lanceCoerce(lit.value(), t);
      if (s == null) {
        String col = column instanceof Expr.ColumnRef c ? c.dotted() : "the column";
        throw ExpressionException.type(lit.at(),
            "literal " + describeLiteral(lit.value()) + " cannot be used with " + col + " ("
                + Types.describe(t) + "): lance-core does not convert it (\"could not convert to"
                + " literal of type\")" + hint(lit.value(), t, col) + ";");
      }
      return new Expr.Literal(s, lit.at());
    }
    Expr[] lr = binaryOperands(e);
    if (lr != null) {
      return withOperands(e, coerceLiterals(lr[0], t, column), coerceLiterals(lr[1], t, column));
    }
    return e;
  }

  private static String describeLiteral(Scalar s) {
    if (s.value() instanceof Double d) {
      return d + " (float64)";
    }
    return s + (s.value() instanceof Long ? " (int64)" : "");
  }

  private static String hint(Scalar s, ArrowType t, String col) {
    if (Types.isInt(t) && s.value() instanceof Long) {
      return "; the value is out of the column's range";
    }
    if (Types.isInt(t) && s.value() instanceof Double) {
      return "; write an integer, or CAST(" + col + " AS DOUBLE)";
    }
    if (Types.isDecimal(t) && s.value() instanceof Double) {
      ArrowType.Decimal d = (ArrowType.Decimal) t;
      return "; write CAST('" + s.value() + "' AS DECIMAL(" + d.getPrecision() + ", "
          + d.getScale() + "))";
    }
    if (Types.isDate(t) && s.value() instanceof String str) {
      return "; write date '" + str + "'";
    }
    if (Types.isTimestamp(t) && s.value() instanceof String str) {
      return "; write timestamp '" + str + "'";
    }
    if (Types.isString(t) && !(s.value() instanceof String)) {
      return "; quote the value: '" + s.value() + "'";
    }
    if (Types.isNumeric(t) && s.value() instanceof String) {
      return "; write the number without quotes";
    }
    return "";
  }

  /**
   * Lance's {@code safe_coerce_scalar} for the literals SQL text can produce (int64, float64,
   * utf8, boolean, binary, NULL), or null when Lance refuses. A dictionary column takes its
   * value type (as upstream's newest {@code safe_coerce_scalar} does; lance-core 7.0.0 refuses).
   */
  static Scalar lanceCoerce(Scalar s, ArrowType t) {
    if (s.isNull()) {
      return s;
    }
    Object v = s.value();
    ArrowType from = s.type();
    if (Types.isInt(from)) {
      long x = s.asLong();
      if (Types.isInt(t)) {
        return Casts.fitsInt(x, Types.isUnsignedInt(from), t) ? Scalar.ofLong(t, x) : null;
      }
      if (Types.isFloat(t)) {
        return new Scalar(t, Types.isFloat32(t) ? (double) (float) x : (double) x);
      }
      if (t instanceof ArrowType.Decimal d) {
        return Casts.decimal(new java.math.BigDecimal(x), d);
      }
      return null;
    }
    if (Types.isFloat(from)) {
      return Types.isFloat(t) ? new Scalar(t, Types.isFloat32(t) ? (double) (float)
          s.asDouble() : s.asDouble()) : null;
    }
    if (Types.isString(from)) {
      return Types.isString(t) ? new Scalar(t, v) : null;
    }
    if (Types.isBool(from)) {
      return Types.isBool(t) ? s : null;
    }
    if (Types.isBinary(from)) {
      return Types.isBinary(t) ? new Scalar(t, v) : null;
    }
    return from.equals(t) ? s : null;
  }

  /** The type of a column or struct field reference, if {@code e} is one the schema has. */
  private Optional<ArrowType> fieldType(Expr e) {
    if (!(e instanceof Expr.ColumnRef c)) {
      return Optional.empty();
    }
    try {
      return Optional.of(column(c).type());
    } catch (ExpressionException ex) {
      return Optional.empty();
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Pass 2: typing and DataFusion's coercion
  // ---------------------------------------------------------------------------------------------

  private Bound bind(Expr e) {
    return fold(bindNode(e));
  }

  private Bound bindNode(Expr e) {
    Position at = e.at();
    if (e instanceof Expr.ColumnRef c) {
      return column(c);
    }
    if (e instanceof Expr.Literal l) {
      return new Bound.Const(l.value(), at);
    }
    if (e instanceof Expr.Negate n) {
      Bound x = bind(n.operand());
      ArrowType t = x.type();
      if (Types.isNull(t)) {
        return x;
      }
      if (!(Types.isSignedInt(t) || Types.isFloat(t) || Types.isDecimal(t))) {
        throw ExpressionException.type(at, "cannot negate a " + Types.describe(t) + " value");
      }
      return new Bound.Negate(x, t, at);
    }
    if (e instanceof Expr.Not n) {
      return new Bound.Not(condition(bind(n.operand()), "NOT"), at);
    }
    if (e instanceof Expr.And a) {
      return new Bound.And(condition(bind(a.left()), "AND"), condition(bind(a.right()), "AND"),
          at);
    }
    if (e instanceof Expr.Or o) {
      return new Bound.Or(condition(bind(o.left()), "OR"), condition(bind(o.right()), "OR"), at);
    }
    if (e instanceof Expr.Compare c) {
      Bound[] lr = Coercion.comparable(bind(c.left()), bind(c.right()), c.op().symbol(), at);
      return new Bound.Compare(c.op(), lr[0], lr[1], at);
    }
    if (e instanceof Expr.IsDistinct d) {
      Bound[] lr = Coercion.comparable(bind(d.left()), bind(d.right()),
          "IS DISTINCT FROM", at);
      return new Bound.IsDistinct(lr[0], lr[1], d.negated(), at);
    }
    if (e instanceof Expr.Arith a) {
      return Coercion.arith(a.op(), bind(a.left()), bind(a.right()), at);
    }
    if (e instanceof Expr.Concat c) {
      Bound l = bind(c.left());
      Bound r = bind(c.right());
      for (Bound x : new Bound[] {l, r}) {
        if (!Types.isString(x.type()) && !Types.isNull(x.type())) {
          throw ExpressionException.type(x.at(), "|| joins strings, not "
              + Types.describe(x.type()) + " (CAST it AS STRING)");
        }
      }
      ArrowType t = l.type() instanceof ArrowType.LargeUtf8 || r.type() instanceof
          ArrowType.LargeUtf8 ? Types.LARGE_UTF8 : Types.UTF8;
      return new Bound.Concat(Coercion.castTo(l, t), Coercion.castTo(r, t), t, at);
    }
    if (e instanceof Expr.IsNull n) {
      return new Bound.IsNull(bind(n.operand()), n.negated(), at);
    }
    if (e instanceof Expr.IsBool b) {
      return new Bound.IsBool(condition(bind(b.operand()), "IS TRUE/FALSE"), b.value(),
          b.negated(), at);
    }
    if (e instanceof Expr.Between b) {
      // DataFusion rewrites BETWEEN into two comparisons; so does Lancet.
      Expr lo = new Expr.Compare(b.negated() ? Expr.CompareOp.LT : Expr.CompareOp.GE,
          b.operand(), b.low(), at);
      Expr hi = new Expr.Compare(b.negated() ? Expr.CompareOp.GT : Expr.CompareOp.LE,
          b.operand(), b.high(), at);
      return bind(b.negated() ? new Expr.Or(lo, hi, at) : new Expr.And(lo, hi, at));
    }
    if (e instanceof Expr.InList in) {
      return inList(in);
    }
    if (e instanceof Expr.Like l) {
      return like(l);
    }
    if (e instanceof Expr.Cast c) {
      Bound x = bind(c.operand());
      if (!Casts.supported(x.type(), c.target())) {
        throw ExpressionException.unsupported("CAST from " + Types.describe(x.type()) + " to "
            + Types.describe(c.target()), at, Coercion.castHint(x.type(), c.target()));
      }
      return new Bound.Cast(x, c.target(), c.safe(), at);
    }
    if (e instanceof Expr.Call call) {
      return call(call);
    }
    throw new IllegalStateException("unbound node " + e);
  }

  private static Bound condition(Bound b, String where) {
    if (Types.isNull(b.type())) {
      return new Bound.Const(Scalar.nullOf(Types.BOOL), b.at());
    }
    if (!Types.isBool(b.type())) {
      throw ExpressionException.type(b.at(), where + " needs a condition, got a "
          + Types.describe(b.type()) + " value");
    }
    return b;
  }

  private Bound inList(Expr.InList in) {
    Bound x = bind(in.operand());
    List<Bound> items = new ArrayList<>();
    for (Expr item : in.items()) {
      Bound b = bind(item);
      if (!(b instanceof Bound.Const)) {
        throw ExpressionException.unsupported("a non-constant IN list value", item.at(),
            "list constants only, as x IN (1, 2, 3)");
      }
      items.add(b);
    }
    // one common type for the operand and every value
    ArrowType common = x.type();
    for (Bound b : items) {
      if (!((Bound.Const) b).value().isNull()) {
        common = Coercion.commonType(common, b.type(), "IN", b.at());
      }
    }
    Bound operand = Coercion.castTo(x, common);
    List<Scalar> values = new ArrayList<>();
    boolean hasNull = false;
    for (Bound b : items) {
      Scalar s = ((Bound.Const) fold(Coercion.castTo(b, common))).value();
      if (s.isNull()) {
        hasNull = true;
      } else {
        values.add(s);
      }
    }
    return new Bound.InList(operand, values, hasNull, in.negated(), in.at());
  }

  private Bound like(Expr.Like l) {
    Bound x = bind(l.operand());
    Bound p = bind(l.pattern());
    String kw = l.caseInsensitive() ? "ILIKE" : "LIKE";
    if (!Types.isString(x.type()) && !Types.isNull(x.type())) {
      throw ExpressionException.type(x.at(), kw + " needs a string, got "
          + Types.describe(x.type()) + " (CAST it AS STRING)");
    }
    if (!(p instanceof Bound.Const pc)) {
      throw ExpressionException.unsupported(kw + " with a pattern that is not a literal",
          l.pattern().at(), "write the pattern as a quoted string");
    }
    if (pc.value().isNull() || Types.isNull(x.type())) {
      return new Bound.Const(Scalar.nullOf(Types.BOOL), l.at());
    }
    if (!Types.isString(pc.type())) {
      throw ExpressionException.type(pc.at(), kw + " needs a string pattern, got "
          + Types.describe(pc.type()));
    }
    return new Bound.Like(x, LikePattern.compile(pc.value().asString(), l.caseInsensitive()),
        l.negated(), l.at());
  }

  private Bound call(Expr.Call call) {
    Position at = call.at();
    String name = call.name();
    if (name.equals("is_valid")) {
      expectArgs(call, 1);
      return new Bound.IsNull(bind(call.args().get(0)), true, at);
    }
    Functions.Fn fn = Functions.lookup(name);
    if (fn == null) {
      String lower = name.toLowerCase(Locale.ROOT);
      String hint = Functions.lookup(lower) != null || lower.equals("is_valid")
          ? "function names are case-sensitive in Lance: write " + lower + "(...)"
          : "supported functions: " + String.join(", ", Functions.NAMES);
      throw ExpressionException.unsupported("function " + name + "()", at, hint);
    }
    List<Bound> args = new ArrayList<>();
    for (Expr a : call.args()) {
      args.add(bind(a));
    }
    switch (fn) {
      case LOWER, UPPER -> {
        expectArgs(call, 1);
        ArrowType t = stringArg(call, args.get(0));
        return new Bound.Call(fn, args, t, at);
      }
      case CHAR_LENGTH, OCTET_LENGTH -> {
        expectArgs(call, 1);
        ArrowType t = stringArg(call, args.get(0));
        return new Bound.Call(fn, args,
            t instanceof ArrowType.LargeUtf8 ? Types.INT64 : Types.INT32, at);
      }
      case ABS -> {
        expectArgs(call, 1);
        ArrowType t = args.get(0).type();
        if (!Types.isNumeric(t) && !Types.isNull(t)) {
          throw ExpressionException.type(at, "abs() needs a number, got " + Types.describe(t));
        }
        return new Bound.Call(fn, args, t, at);
      }
      case STARTS_WITH, ENDS_WITH -> {
        expectArgs(call, 2);
        stringArg(call, args.get(0));
        stringArg(call, args.get(1));
        return new Bound.Call(fn, args, Types.BOOL, at);
      }
      case COALESCE -> {
        if (args.isEmpty()) {
          throw ExpressionException.type(at, "coalesce() needs at least one argument");
        }
        ArrowType common = Types.NULL;
        for (Bound a : args) {
          common = Types.isNull(common) ? a.type()
              : Types.isNull(a.type()) ? common : Coercion.commonType(common, a.type(),
                  "coalesce", a.at());
        }
        List<Bound> cast = new ArrayList<>();
        for (Bound a : args) {
          cast.add(Coercion.castTo(a, common));
        }
        return new Bound.Call(fn, cast, common, at);
      }
      default -> throw new IllegalStateException(fn.toString());
    }
  }

  private static void expectArgs(Expr.Call call, int n) {
    if (call.args().size() != n) {
      throw ExpressionException.type(call.at(), call.name() + "() takes " + n + " argument"
          + (n == 1 ? "" : "s") + ", got " + call.args().size());
    }
  }

  private static ArrowType stringArg(Expr.Call call, Bound arg) {
    if (Types.isString(arg.type()) || Types.isNull(arg.type())) {
      return Types.isNull(arg.type()) ? Types.UTF8 : arg.type();
    }
    throw ExpressionException.type(arg.at(), call.name() + "() needs a string, got "
        + Types.describe(arg.type()));
  }

  /** Resolves a column reference: the first name exactly, else case-insensitively (as Lance). */
  Bound.Column column(Expr.ColumnRef c) {
    List<String> path = c.path();
    Field top = null;
    for (Field f : schema.getFields()) {
      if (f.getName().equals(path.get(0))) {
        top = f;
        break;
      }
    }
    if (top == null && !c.exactCase()) {
      for (Field f : schema.getFields()) {
        if (f.getName().equalsIgnoreCase(path.get(0))) {
          top = f;
          break;
        }
      }
    }
    if (top == null) {
      throw new ExpressionException(ExpressionException.Kind.UNKNOWN_COLUMN, c.at(),
          "no column named " + path.get(0) + c.at().describe() + "; the columns are "
              + schema.getFields().stream().map(Field::getName).collect(Collectors.joining(", ")));
    }
    List<String> resolved = new ArrayList<>(List.of(top.getName()));
    Field cur = top;
    for (int k = 1; k < path.size(); k++) {
      if (!(cur.getType() instanceof ArrowType.Struct)) {
        throw ExpressionException.type(c.at(), String.join(".", resolved) + " is a "
            + Types.describe(cur.getType()) + ", not a struct: it has no field " + path.get(k));
      }
      Field next = null;
      for (Field f : cur.getChildren()) {
        if (f.getName().equals(path.get(k))) {
          next = f;
        }
      }
      if (next == null) {
        throw new ExpressionException(ExpressionException.Kind.UNKNOWN_COLUMN, c.at(),
            "struct " + String.join(".", resolved) + " has no field " + path.get(k)
                + c.at().describe() + "; its fields are " + cur.getChildren().stream()
                    .map(Field::getName).collect(Collectors.joining(", ")));
      }
      resolved.add(next.getName());
      cur = next;
    }
    if (cur.getDictionary() != null) {
      // the schema carries the index type; the values are strings (checked per batch)
      return new Bound.Column(resolved, Types.UTF8, cur.getDictionary(), c.at());
    }
    ArrowType t = cur.getType();
    if (!(Types.isInt(t) || Types.isFloat(t) || Types.isDecimal(t) || Types.isBytes(t)
        || Types.isBool(t) || Types.isTemporal(t) || t instanceof ArrowType.Struct
        || t instanceof ArrowType.FixedSizeList || t instanceof ArrowType.List
        || t instanceof ArrowType.LargeList || Types.isNull(t))) {
      throw ExpressionException.unsupported("a column of type " + Types.describe(t) + " ("
          + String.join(".", resolved) + ")", c.at(), "");
    }
    return new Bound.Column(resolved, t, null, c.at());
  }

  /** Folds a node whose operands are all constants into one constant. */
  static Bound fold(Bound b) {
    if (b instanceof Bound.Const || b instanceof Bound.Column) {
      return b;
    }
    if (!operands(b).stream().allMatch(x -> x instanceof Bound.Const)) {
      return b;
    }
    Values v = Evaluator.eval(b, new Evaluator.Batch() {
      @Override
      public int rowCount() {
        return 1;
      }

      @Override
      public Values column(Bound.Column column) {
        throw new IllegalStateException("constant expression reads " + column.dotted());
      }
    });
    return new Bound.Const(Evaluator.scalarAt(v, 0), b.at());
  }

  static List<Bound> operands(Bound b) {
    if (b instanceof Bound.Cast c) {
      return List.of(c.operand());
    }
    if (b instanceof Bound.Negate n) {
      return List.of(n.operand());
    }
    if (b instanceof Bound.Arith a) {
      return List.of(a.left(), a.right());
    }
    if (b instanceof Bound.Concat c) {
      return List.of(c.left(), c.right());
    }
    if (b instanceof Bound.Compare c) {
      return List.of(c.left(), c.right());
    }
    if (b instanceof Bound.And a) {
      return List.of(a.left(), a.right());
    }
    if (b instanceof Bound.Or o) {
      return List.of(o.left(), o.right());
    }
    if (b instanceof Bound.Not n) {
      return List.of(n.operand());
    }
    if (b instanceof Bound.IsNull n) {
      return List.of(n.operand());
    }
    if (b instanceof Bound.IsBool n) {
      return List.of(n.operand());
    }
    if (b instanceof Bound.IsDistinct d) {
      return List.of(d.left(), d.right());
    }
    if (b instanceof Bound.InList in) {
      return List.of(in.operand());
    }
    if (b instanceof Bound.Like l) {
      return List.of(l.operand());
    }
    if (b instanceof Bound.Call c) {
      return c.args();
    }
    return List.of();
  }
}
