package dev.lancet.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.math.BigInteger;

/**
 * A strict JSON parser for the commands' {@code --json} output, configured here (not shared
 * with the code under test): one document, no trailing tokens, no duplicate keys, no comments,
 * no NaN, no single quotes.
 */
final class StrictJson {
  private static final ObjectMapper STRICT = JsonMapper.builder()
      .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
      .disable(JsonParser.Feature.ALLOW_COMMENTS)
      .disable(JsonParser.Feature.ALLOW_SINGLE_QUOTES)
      .disable(JsonParser.Feature.ALLOW_NON_NUMERIC_NUMBERS)
      .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
      .enable(DeserializationFeature.USE_BIG_INTEGER_FOR_INTS)
      .build();

  private StrictJson() {}

  static JsonNode parse(String text) {
    try {
      return STRICT.readTree(text);
    } catch (Exception e) {
      throw new AssertionError("not strict JSON: " + e.getMessage() + "\n" + text, e);
    }
  }

  /** Asserts {@code node} is a JSON integer (not 10.0, not "10") equal to {@code expected}. */
  static void assertInteger(JsonNode node, long expected) {
    assertThat(node).as("a JSON integer").isNotNull();
    assertThat(node.isIntegralNumber()).as("%s is a JSON integer", node).isTrue();
    assertThat(node.bigIntegerValue()).isEqualTo(BigInteger.valueOf(expected));
  }

  /** Asserts {@code node} is a JSON integer equal to the unsigned 64-bit {@code expected}. */
  static void assertUnsigned(JsonNode node, long expected) {
    assertThat(node.isIntegralNumber()).as("%s is a JSON integer", node).isTrue();
    assertThat(node.bigIntegerValue()).isEqualTo(new BigInteger(Long.toUnsignedString(expected)));
  }
}
