package dev.lancet.interop.readme;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The README's Java snippets and the compiled sources they come from. In README.md a snippet is
 * the fenced {@code java} block right after a marker line {@code <!-- snippet: NAME -->}; its
 * source is {@code NAMESnippet.java} in this package (NAME in UpperCamel), and its text is that
 * file's {@code import} lines, a blank line, then the lines between {@code // README:begin} and
 * {@code // README:end}, dedented. {@code ReadmeSnippetsTest} checks the two are the same text
 * and runs every snippet against real tables, so a snippet can neither drift nor stop compiling.
 */
final class ReadmeSnippets {
  static final Pattern MARKER = Pattern.compile("<!-- snippet: ([a-z-]+) -->\\s*\\n```java\\n(.*?)```",
      Pattern.DOTALL);

  private ReadmeSnippets() {}

  /** Snippet name to the text of its block in the README. */
  static Map<String, String> inReadme(Path readme) throws IOException {
    Map<String, String> out = new LinkedHashMap<>();
    Matcher m = MARKER.matcher(Files.readString(readme));
    while (m.find()) {
      out.put(m.group(1), m.group(2));
    }
    return out;
  }

  /** The README text of snippet {@code name}, from its source file. */
  static String fromSource(Path sourceDir, String name) throws IOException {
    Path file = sourceDir.resolve(upperCamel(name) + "Snippet.java");
    List<String> lines = Files.readAllLines(file);
    List<String> imports = new ArrayList<>();
    List<String> body = new ArrayList<>();
    boolean in = false;
    for (String line : lines) {
      if (line.startsWith("import ")) {
        imports.add(line);
      } else if (line.strip().equals("// README:begin")) {
        in = true;
      } else if (line.strip().equals("// README:end")) {
        in = false;
      } else if (in) {
        body.add(line);
      }
    }
    int indent = Integer.MAX_VALUE;
    for (String l : body) {
      if (!l.isBlank()) {
        indent = Math.min(indent, l.length() - l.stripLeading().length());
      }
    }
    StringBuilder sb = new StringBuilder();
    imports.forEach(i -> sb.append(i).append('\n'));
    sb.append('\n');
    for (String l : body) {
      sb.append(l.isBlank() ? "" : l.substring(indent)).append('\n');
    }
    return sb.toString();
  }

  static String upperCamel(String name) {
    StringBuilder sb = new StringBuilder();
    for (String part : name.split("-")) {
      sb.append(Character.toUpperCase(part.charAt(0))).append(part.substring(1));
    }
    return sb.toString();
  }
}
