package dev.lancet.demo;

/** One verification of the final table: what was expected, what was found, and whether they agree. */
public record Check(String name, String expected, String actual, boolean passed) {
  static Check equal(String name, Object expected, Object actual) {
    return new Check(name, String.valueOf(expected), String.valueOf(actual), expected.equals(actual));
  }
}
