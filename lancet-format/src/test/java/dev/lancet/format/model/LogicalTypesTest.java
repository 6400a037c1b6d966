package dev.lancet.format.model;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Lance's logical-type grammar (rust/lance-core/src/datatypes.rs at 01afee43). */
class LogicalTypesTest {

  @ParameterizedTest
  @ValueSource(strings = {"null", "bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64",
      "uint64", "halffloat", "float", "double", "string", "binary", "large_string", "large_binary", "blob",
      "json", "date32:day", "date64:ms", "time32:s", "time32:ms", "time64:us", "time64:ns", "duration:s",
      "duration:ns", "timestamp:us:-", "timestamp:ns:UTC", "timestamp:ms:America/Los_Angeles",
      "timestamp:us:+0800", "fixed_size_list:float:128", "fixed_size_list:lance.bfloat16:8",
      "fixed_size_list:fixed_size_list:float:2:3", "fixed_size_binary:16", "dict:string:int32:false",
      "decimal:128:38:10", "decimal:256:76:-3", "struct", "list", "list.struct", "large_list",
      "large_list.struct", "map", "fixed_size_list:struct:4"})
  void acceptsEveryTypeLanceReads(String type) {
    assertThat(LogicalTypes.problem(type)).isNull();
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "float64                  | not a type in Lance's grammar",
      "Int64                    | not a type in Lance's grammar",
      "''                       | empty",
      "time32:us                | not a type in Lance's grammar",
      "timestamp:us             | takes a unit and a time zone",
      "timestamp:weeks:-        | time unit 'weeks'",
      "timestamp:us:+08:00      | lance-core 7.0.0 cannot read",
      "fixed_size_list:float    | needs an item type and a dimension",
      "fixed_size_list:float:0  | must be positive",
      "fixed_size_list:float:x  | not a 32-bit number",
      "fixed_size_list:list:4   | item type 'list'",
      "fixed_size_list:struct:0 | must be positive",
      "fixed_size_binary:-1     | must be positive",
      "fixed_size_binary:1:2    | takes one size",
      "dict:string:int32        | takes a value type",
      "dict:strin:int32:false   | its type 'strin'",
      "decimal:64:10:2          | 128 or 256 bits",
      "decimal:128:300:2        | precision '300'",
      "decimal:128:10:200       | scale '200'",
  })
  void refusesWhatLanceCannotParseAndSaysWhy(String type, String why) {
    assertThat(LogicalTypes.problem(type)).contains(why);
  }

  @ParameterizedTest
  @CsvSource({"struct, STRUCT", "list, LIST", "list.struct, LIST", "large_list.struct, LIST",
      "fixed_size_list:struct:2, LIST", "map, MAP", "int32, LEAF", "fixed_size_list:float:2, LEAF"})
  void knowsWhichTypesHaveChildren(String type, LogicalTypes.Shape shape) {
    assertThat(LogicalTypes.shape(type)).isEqualTo(shape);
  }
}
