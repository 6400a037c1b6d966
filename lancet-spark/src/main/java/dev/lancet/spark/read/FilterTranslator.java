package dev.lancet.spark.read;

import java.time.LocalDate;
import java.util.Optional;
import java.util.regex.Pattern;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.spark.sql.connector.expressions.Expression;
import org.apache.spark.sql.connector.expressions.Literal;
import org.apache.spark.sql.connector.expressions.NamedReference;
import org.apache.spark.sql.connector.expressions.filter.Predicate;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * Translates Spark's pushed predicates into Lance SQL filters, only where Lance's semantics
 * (docs/decisions/0013) and Spark's agree on every row, so the pushed filter never drops a row
 * Spark would keep: comparisons, IN, IS [NOT] NULL, null-safe equality and prefix/suffix/infix
 * matches over top-level integer, string, boolean and date columns, with AND / OR / NOT of those.
 * Floats are never pushed (Spark's NaN = NaN and -0.0 = 0.0 differ from Lance's total order),
 * nor decimals (Lance refuses decimal literals), binaries, timestamps or nested fields; strings
 * compare as unsigned UTF-8 bytes on both sides. Spark re-applies every predicate after the scan
 * anyway; what is pushed only saves rows.
 */
final class FilterTranslator {
  private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

  private final Schema schema;

  FilterTranslator(Schema schema) {
    this.schema = schema;
  }

  /** The Lance SQL of {@code p}, or empty when it cannot be pushed exactly. */
  Optional<String> translate(Predicate p) {
    try {
      return Optional.ofNullable(sql(p));
    } catch (RuntimeException e) {
      return Optional.empty();
    }
  }

  private String sql(Expression e) {
    if (!(e instanceof Predicate p)) {
      return null;
    }
    Expression[] c = p.children();
    switch (p.name()) {
      case "AND", "OR" -> {
        String a = sql(c[0]);
        String b = sql(c[1]);
        return a == null || b == null ? null : "(" + a + ") " + p.name() + " (" + b + ")";
      }
      case "NOT" -> {
        String a = sql(c[0]);
        return a == null ? null : "NOT (" + a + ")";
      }
      case "IS_NULL", "IS_NOT_NULL" -> {
        String col = column(c[0]);
        return col == null ? null : col + (p.name().equals("IS_NULL") ? " IS NULL" : " IS NOT NULL");
      }
      case "=", "<>", "<", "<=", ">", ">=", "<=>" -> {
        String op = p.name().equals("<=>") ? "IS NOT DISTINCT FROM" : p.name();
        String l = operand(c[0]);
        String r = operand(c[1]);
        if (l == null || r == null || (isLiteral(c[0]) && isLiteral(c[1]))) {
          return null;
        }
        if (c[0] instanceof NamedReference && c[1] instanceof NamedReference
            && !sameType(c[0], c[1])) {
          return null;
        }
        return l + " " + op + " " + r;
      }
      case "IN" -> {
        String col = column(c[0]);
        if (col == null || c.length < 2) {
          return null;
        }
        StringBuilder b = new StringBuilder(col).append(" IN (");
        for (int i = 1; i < c.length; i++) {
          if (!(c[i] instanceof Literal<?> lit) || lit.value() == null) {
            return null; // a NULL in the list: leave three-valued IN to Spark
          }
          String v = literal(lit);
          if (v == null) {
            return null;
          }
          b.append(i > 1 ? ", " : "").append(v);
        }
        return b.append(")").toString();
      }
      case "STARTS_WITH", "ENDS_WITH", "CONTAINS" -> {
        String col = column(c[0]);
        if (col == null || !(c[1] instanceof Literal<?> lit) || !(lit.value() instanceof UTF8String s)
            || !isString(c[0])) {
          return null;
        }
        String text = s.toString();
        if (text.contains("%") || text.contains("_") || text.contains("\\") || text.contains("'")) {
          return null;
        }
        String pattern = switch (p.name()) {
          case "STARTS_WITH" -> text + "%";
          case "ENDS_WITH" -> "%" + text;
          default -> "%" + text + "%";
        };
        return col + " LIKE '" + pattern + "'";
      }
      case "ALWAYS_TRUE" -> {
        return "true";
      }
      case "ALWAYS_FALSE" -> {
        return "false";
      }
      default -> {
        return null;
      }
    }
  }

  private String operand(Expression e) {
    if (e instanceof NamedReference) {
      return column(e);
    }
    if (e instanceof Literal<?> lit) {
      return lit.value() == null ? null : literal(lit);
    }
    return null;
  }

  private static boolean isLiteral(Expression e) {
    return e instanceof Literal<?>;
  }

  /** A top-level column of a pushable type, quoted; null otherwise. */
  private String column(Expression e) {
    if (!(e instanceof NamedReference ref) || ref.fieldNames().length != 1) {
      return null;
    }
    String name = ref.fieldNames()[0];
    Field f = field(name);
    if (f == null || !pushable(f.getType())) {
      return null;
    }
    return IDENTIFIER.matcher(name).matches() ? "`" + name + "`" : null;
  }

  private Field field(String name) {
    for (Field f : schema.getFields()) {
      if (f.getName().equals(name)) {
        return f;
      }
    }
    return null;
  }

  private boolean isString(Expression e) {
    Field f = field(((NamedReference) e).fieldNames()[0]);
    return f.getType() instanceof ArrowType.Utf8 || f.getType() instanceof ArrowType.LargeUtf8;
  }

  private boolean sameType(Expression a, Expression b) {
    return field(((NamedReference) a).fieldNames()[0]).getType()
        .equals(field(((NamedReference) b).fieldNames()[0]).getType());
  }

  private static boolean pushable(ArrowType t) {
    return t instanceof ArrowType.Int || t instanceof ArrowType.Utf8
        || t instanceof ArrowType.LargeUtf8 || t instanceof ArrowType.Bool
        || (t instanceof ArrowType.Date d && d.getUnit() == org.apache.arrow.vector.types.DateUnit.DAY);
  }

  private static String literal(Literal<?> lit) {
    Object v = lit.value();
    DataType t = lit.dataType();
    if (t == DataTypes.ByteType || t == DataTypes.ShortType || t == DataTypes.IntegerType
        || t == DataTypes.LongType) {
      return v.toString();
    }
    if (t == DataTypes.BooleanType) {
      return ((Boolean) v) ? "true" : "false";
    }
    if (t instanceof org.apache.spark.sql.types.StringType && v instanceof UTF8String s) {
      String text = s.toString();
      if (text.contains("\\")) {
        return null;
      }
      return "'" + text.replace("'", "''") + "'";
    }
    if (t == DataTypes.DateType) {
      return "date '" + LocalDate.ofEpochDay((Integer) v) + "'";
    }
    return null;
  }
}
