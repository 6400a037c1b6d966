package dev.lancet.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.core.util.Separators;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigInteger;
import java.util.List;

/**
 * The JSON the commands print for scripts ({@code --json}), built with Jackson so every value
 * has its exact JSON type: versions, counts and attempts are JSON integers (never
 * {@code 10.0}), unsigned 64-bit values above 2^63-1 included.
 */
final class CliJson {
  private static final JsonNodeFactory NODES = JsonNodeFactory.withExactBigDecimals(true);
  /** Strict: a repeated key in an object is an error, as it is in any input Lancet reads. */
  static final ObjectMapper MAPPER = JsonMapper.builder()
      .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
      .nodeFactory(NODES)
      .build();

  private CliJson() {}

  static ObjectNode object() {
    return NODES.objectNode();
  }

  static ArrayNode array() {
    return NODES.arrayNode();
  }

  /** An unsigned 64-bit value as a JSON integer: 2^64-1 prints as 18446744073709551615. */
  static JsonNode unsigned(long value) {
    return value >= 0 ? NODES.numberNode(value)
        : NODES.numberNode(new BigInteger(Long.toUnsignedString(value)));
  }

  static ArrayNode strings(List<String> items) {
    ArrayNode a = array();
    items.forEach(a::add);
    return a;
  }

  /** Two-space indentation and {@code "key": value}, as protobuf's JSON printer lays it out. */
  private static final DefaultPrettyPrinter PRETTY = new DefaultPrettyPrinter()
      .withSeparators(Separators.createDefaultInstance()
          .withObjectFieldValueSpacing(Separators.Spacing.AFTER));

  /** Pretty-printed. */
  static String print(JsonNode node) {
    try {
      return MAPPER.writer(PRETTY).writeValueAsString(node);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a JSON tree must always print", e);
    }
  }

  /** Parses JSON the commands printed (strict: duplicate keys are refused). */
  static JsonNode parse(String json) {
    try {
      return MAPPER.readTree(json);
    } catch (JsonProcessingException e) {
      throw new CliException("not valid JSON: " + e.getOriginalMessage());
    }
  }
}
