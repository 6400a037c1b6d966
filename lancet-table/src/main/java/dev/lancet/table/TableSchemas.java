package dev.lancet.table;

import dev.lancet.file.schema.ColumnLayout;
import dev.lancet.file.schema.LanceSchemas;
import dev.lancet.file.schema.SchemaException;
import dev.lancet.format.model.Field;
import dev.lancet.format.model.Schema;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.vector.dictionary.DictionaryProvider;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * The file library's schema mapping ({@link LanceSchemas}, {@link ColumnLayout}) as the table
 * API reports it: a schema Lance cannot store, or a stored type this library does not map, is
 * the table's {@link InvalidInputException} (the library's {@link SchemaException} its cause).
 */
final class TableSchemas {
  private TableSchemas() {}

  static Schema toLance(org.apache.arrow.vector.types.pojo.Schema arrow, int firstId,
      Optional<DictionaryProvider> dictionaries) {
    try {
      return LanceSchemas.toLance(arrow, firstId, dictionaries);
    } catch (SchemaException e) {
      throw invalid(e);
    }
  }

  static List<Field> fieldToLance(org.apache.arrow.vector.types.pojo.Field arrow, int firstId,
      Optional<DictionaryProvider> dictionaries) {
    try {
      return LanceSchemas.fieldToLance(arrow, firstId, dictionaries);
    } catch (SchemaException e) {
      throw invalid(e);
    }
  }

  static org.apache.arrow.vector.types.pojo.Schema toArrow(Schema lance) {
    try {
      return LanceSchemas.toArrow(lance);
    } catch (SchemaException e) {
      throw invalid(e);
    }
  }

  static ArrowType dictionaryValueType(String logicalType, String where) {
    try {
      return LanceSchemas.dictionaryValueType(logicalType, where);
    } catch (SchemaException e) {
      throw invalid(e);
    }
  }

  static List<Integer> slotFieldIds(List<Field> fields, int major, int minor) {
    try {
      return ColumnLayout.slotFieldIds(fields, major, minor);
    } catch (SchemaException e) {
      throw invalid(e);
    }
  }

  private static InvalidInputException invalid(SchemaException e) {
    return new InvalidInputException(e.getMessage(), e);
  }
}
