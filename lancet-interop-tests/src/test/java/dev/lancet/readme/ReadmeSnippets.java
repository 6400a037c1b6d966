package dev.lancet.readme;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The two halves of the README check: the code blocks the README marks with
 * {@code <!-- snippet: NAME -->} on the line before the opening fence, and the regions of
 * real source files marked {@code // readme:begin NAME} ... {@code // readme:end NAME}. A
 * snippet may have several regions of one name (its imports at the top of the file, its
 * method in the class); they join with a blank line, each de-indented.
 */
final class ReadmeSnippets {
  private static final Pattern MARKER = Pattern.compile("^<!-- snippet: ([A-Za-z0-9_-]+) -->$");
  private static final Pattern BEGIN = Pattern.compile("^\\s*// readme:begin ([A-Za-z0-9_-]+)$");
  private static final Pattern END = Pattern.compile("^\\s*// readme:end ([A-Za-z0-9_-]+)$");

  private ReadmeSnippets() {}

  /** A marked code block of the README: its name, fence language, text, and line number. */
  record Block(String name, String language, String text, int line) {}

  /** The repository root: the nearest ancestor of the working directory with a README.md and pom.xml. */
  static Path repositoryRoot() {
    Path dir = Path.of("").toAbsolutePath();
    for (Path d = dir; d != null; d = d.getParent()) {
      if (Files.isRegularFile(d.resolve("README.md")) && Files.isRegularFile(d.resolve("pom.xml"))
          && Files.isDirectory(d.resolve("lancet-core"))) {
        return d;
      }
    }
    throw new IllegalStateException("no repository root above " + dir);
  }

  /** Every marked block of {@code markdown}, in order. */
  static List<Block> blocks(Path markdown) {
    List<String> lines = read(markdown);
    List<Block> blocks = new ArrayList<>();
    for (int i = 0; i < lines.size(); i++) {
      Matcher m = MARKER.matcher(lines.get(i).strip());
      if (!m.matches()) {
        continue;
      }
      if (i + 1 >= lines.size() || !lines.get(i + 1).startsWith("```")) {
        throw new IllegalStateException(markdown + ":" + (i + 1) + ": snippet marker '" + m.group(1)
            + "' is not followed by a fenced code block");
      }
      String language = lines.get(i + 1).substring(3).strip();
      StringBuilder text = new StringBuilder();
      int j = i + 2;
      for (; j < lines.size() && !lines.get(j).startsWith("```"); j++) {
        text.append(lines.get(j)).append('\n');
      }
      if (j == lines.size()) {
        throw new IllegalStateException(markdown + ":" + (i + 2) + ": unclosed code block");
      }
      blocks.add(new Block(m.group(1), language, text.toString(), i + 1));
      i = j;
    }
    return blocks;
  }

  /** The regions of the given source files by name (parts of one name joined, de-indented). */
  static Map<String, String> regions(List<Path> sources) {
    Map<String, List<String>> parts = new LinkedHashMap<>();
    for (Path source : sources) {
      List<String> lines = read(source);
      String open = null;
      List<String> current = new ArrayList<>();
      for (int i = 0; i < lines.size(); i++) {
        String line = lines.get(i);
        Matcher begin = BEGIN.matcher(line);
        Matcher end = END.matcher(line);
        if (begin.matches()) {
          if (open != null) {
            throw new IllegalStateException(source + ":" + (i + 1) + ": region '" + begin.group(1)
                + "' begins inside '" + open + "'");
          }
          open = begin.group(1);
          current = new ArrayList<>();
        } else if (end.matches()) {
          if (!end.group(1).equals(open)) {
            throw new IllegalStateException(source + ":" + (i + 1) + ": 'end " + end.group(1)
                + "' does not close " + (open == null ? "any region" : "'" + open + "'"));
          }
          parts.computeIfAbsent(open, k -> new ArrayList<>()).add(dedent(current));
          open = null;
        } else if (open != null) {
          current.add(line);
        }
      }
      if (open != null) {
        throw new IllegalStateException(source + ": region '" + open + "' is never closed");
      }
    }
    Map<String, String> joined = new LinkedHashMap<>();
    parts.forEach((name, texts) -> joined.put(name, String.join("\n", texts)));
    return joined;
  }

  private static String dedent(List<String> lines) {
    int indent = lines.stream().filter(l -> !l.isBlank())
        .mapToInt(l -> l.length() - l.stripLeading().length()).min().orElse(0);
    StringBuilder out = new StringBuilder();
    for (String l : lines) {
      out.append(l.isBlank() ? "" : l.substring(indent)).append('\n');
    }
    return out.toString();
  }

  private static List<String> read(Path file) {
    try {
      return Files.readAllLines(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
