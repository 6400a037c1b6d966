package dev.lancet.interop.mixed;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * What a worker of the mixed-writers test reports, one line per event on its stdout: {@code @@
 * TYPE key=value ... | message}. Types: {@code ACK} (a commit its writer was told succeeded),
 * {@code NOOP} (an operation that committed nothing), {@code CONFLICT} (a Lancet commit attempt
 * refused as a retryable conflict), {@code ERROR} (any other failure), {@code GAVEUP} (an
 * operation abandoned after its attempts). Values never contain spaces; the message may.
 */
record WorkerLog(String type, Map<String, String> fields, String message) {
  static final String PREFIX = "@@ ";

  WorkerLog {
    fields = Map.copyOf(fields);
  }

  /** Prints one event line (and flushes, so that a killed worker loses nothing it reported). */
  static synchronized void print(String type, String message, String... keyValues) {
    StringBuilder sb = new StringBuilder(PREFIX).append(type);
    for (int i = 0; i < keyValues.length; i += 2) {
      String value = keyValues[i + 1];
      if (value.isEmpty() || value.contains(" ")) {
        throw new IllegalArgumentException("a log value must be non-empty without spaces: '" + value + "'");
      }
      sb.append(' ').append(keyValues[i]).append('=').append(value);
    }
    if (!message.isEmpty()) {
      sb.append(" | ").append(message.replace('\n', ' ').replace('\r', ' '));
    }
    System.out.println(sb);
    System.out.flush();
  }

  /** The events among a worker's stdout lines (other output, such as native logging, is skipped). */
  static List<WorkerLog> parse(List<String> lines) {
    List<WorkerLog> out = new ArrayList<>();
    for (String line : lines) {
      if (!line.startsWith(PREFIX)) {
        continue;
      }
      String body = line.substring(PREFIX.length());
      String message = "";
      int bar = body.indexOf(" | ");
      if (bar >= 0) {
        message = body.substring(bar + 3);
        body = body.substring(0, bar);
      }
      String[] parts = body.split(" ");
      Map<String, String> fields = new LinkedHashMap<>();
      for (String p : Arrays.asList(parts).subList(1, parts.length)) {
        int eq = p.indexOf('=');
        fields.put(p.substring(0, eq), p.substring(eq + 1));
      }
      out.add(new WorkerLog(parts[0], fields, message));
    }
    return out;
  }

  String get(String key) {
    String v = fields.get(key);
    if (v == null) {
      throw new IllegalStateException("worker line " + this + " has no " + key);
    }
    return v;
  }

  long getLong(String key) {
    return Long.parseLong(get(key));
  }

  /** The ids of a comma-separated field; empty when the field is absent or "-". */
  List<Long> ids(String key) {
    String v = fields.get(key);
    if (v == null || v.equals("-")) {
      return List.of();
    }
    return Arrays.stream(v.split(",")).map(Long::parseLong).toList();
  }

  /** Ids as a log value ("-" for none). */
  static String ids(java.util.Collection<Long> ids) {
    return ids.isEmpty() ? "-" : ids.stream().map(String::valueOf).collect(Collectors.joining(","));
  }
}
