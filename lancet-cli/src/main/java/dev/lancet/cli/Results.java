package dev.lancet.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Model.CommandSpec;

/** The one-line result of a table command, or a JSON object with exact types under --json. */
final class Results {
  private static final ObjectMapper JSON = new ObjectMapper();

  private Results() {}

  static Map<String, Object> fields(Object... keyValues) {
    Map<String, Object> out = new LinkedHashMap<>();
    for (int i = 0; i < keyValues.length; i += 2) {
      out.put((String) keyValues[i], keyValues[i + 1]);
    }
    return out;
  }

  static void print(CommandSpec spec, boolean json, String text, Object value) {
    PrintWriter out = spec.commandLine().getOut();
    if (json) {
      try {
        out.println(JSON.writeValueAsString(value));
      } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
        throw new IllegalStateException(e);
      }
    } else {
      out.println(text);
    }
    out.flush();
  }
}
