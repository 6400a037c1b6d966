package dev.lancet.cli.table;

import dev.lancet.cli.CliException;
import dev.lancet.format.model.Field;
import dev.lancet.format.model.Schema;
import dev.lancet.table.LanceTableException;
import dev.lancet.file.schema.LanceSchemas;
import java.util.List;
import java.util.Map;

/**
 * Column types on the command line, written as Lance logical types: {@code int64}, {@code string},
 * {@code double}, {@code timestamp:us:UTC}, {@code decimal:128:10:2},
 * {@code fixed_size_list:float:128}, ...
 */
public final class TypeSpecs {
  private TypeSpecs() {}

  /** The Arrow field {@code name} of Lance logical type {@code type}. */
  public static org.apache.arrow.vector.types.pojo.Field field(String name, String type,
      boolean nullable) {
    if (type.equals("struct") || type.startsWith("list") || type.startsWith("large_list")
        || type.startsWith("dict:")) {
      throw new CliException("type " + type + " needs children or a dictionary; give the column "
          + "in an Arrow IPC file instead");
    }
    try {
      Schema one = new Schema(List.of(Field.builder(0, name, type).nullable(nullable).build()), Map.of());
      return LanceSchemas.toArrow(one).getFields().get(0);
    } catch (LanceTableException | IllegalArgumentException e) {
      throw new CliException("'" + type + "' is not a Lance type this command knows (" + e.getMessage()
          + "); examples: int64, double, string, bool, date32:day, timestamp:us:UTC, "
          + "fixed_size_list:float:128");
    }
  }

  /**
   * The schema {@code "NAME:TYPE,NAME:TYPE"} names: each column nullable, of a Lance logical
   * type ({@link #field}); a name may not contain ':' or ','.
   */
  public static org.apache.arrow.vector.types.pojo.Schema schema(String spec) {
    List<org.apache.arrow.vector.types.pojo.Field> fields = new java.util.ArrayList<>();
    for (String column : spec.split(",")) {
      int colon = column.indexOf(':');
      if (colon <= 0 || colon == column.length() - 1) {
        throw new CliException("--schema takes NAME:TYPE[,NAME:TYPE...], not '" + column.trim()
            + "' in '" + spec + "'");
      }
      fields.add(field(column.substring(0, colon).trim(), column.substring(colon + 1).trim(),
          true));
    }
    return new org.apache.arrow.vector.types.pojo.Schema(fields);
  }

  /** Splits {@code "a=b"}. */
  public static String[] pair(String s, String option) {
    int eq = s.indexOf('=');
    if (eq <= 0 || eq == s.length() - 1) {
      throw new CliException(option + " takes NAME=VALUE, not '" + s + "'");
    }
    return new String[] {s.substring(0, eq), s.substring(eq + 1)};
  }
}
