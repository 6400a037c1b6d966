package dev.lancet.cli;

import dev.lancet.format.FormatException;
import dev.lancet.format.codec.IndexCodec;
import dev.lancet.format.model.DeletionFile;
import dev.lancet.format.model.Field;
import dev.lancet.format.model.Schema;
import dev.lancet.format.pb.ActionProtos;
import dev.lancet.format.pb.TableProtos;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Function;

/** Small renderings shared by the commands. */
final class Formats {
  /** What a cell shows when there is nothing to show. */
  static final String NONE = "-";

  private Formats() {}

  /** ISO-8601 in UTC ("2024-05-01T12:00:00.123Z"), or {@link #NONE}. */
  static String instant(Optional<Instant> t) {
    return t.map(Instant::toString).orElse(NONE);
  }

  /** Like {@link #instant} but to the millisecond, for tables. */
  static String instantMillis(Optional<Instant> t) {
    return instant(t.map(i -> i.truncatedTo(java.time.temporal.ChronoUnit.MILLIS)));
  }

  /** Like {@link #instant} but to the second, for tables people scan. */
  static String instantSeconds(Optional<Instant> t) {
    return instant(t.map(i -> i.truncatedTo(java.time.temporal.ChronoUnit.SECONDS)));
  }

  static String unsigned(long v) {
    return Long.toUnsignedString(v);
  }

  static String yesNo(boolean b) {
    return b ? "yes" : "no";
  }

  static String orNone(String s) {
    return s == null || s.isEmpty() ? NONE : s;
  }

  /** A UUID message as the usual hyphenated string; malformed ones as hex. */
  static String uuid(TableProtos.UUID p) {
    try {
      return IndexCodec.uuidFromProto(p, "uuid").toString();
    } catch (FormatException e) {
      return p.getUuid().isEmpty() ? NONE : "0x" + HexFormat.of().formatHex(p.getUuid().toByteArray());
    }
  }

  /** A fragment/field/base reference: a committed id as itself, a local token as {@code local:N}. */
  static String ref(ActionProtos.Ref r) {
    return switch (r.getKindCase()) {
      case COMMITTED -> unsigned(r.getCommitted());
      case LOCAL -> "local:" + Integer.toUnsignedString(r.getLocal());
      case KIND_NOT_SET -> "?";
    };
  }

  static String refs(List<ActionProtos.Ref> refs) {
    return list(refs, Formats::ref);
  }

  /** {@code [a, b, c]}; long lists show their first 10 items and a count. */
  static <T> String list(Collection<T> items, Function<T, String> render) {
    List<String> shown = new ArrayList<>();
    int i = 0;
    for (T item : items) {
      if (i++ == 10) {
        shown.add("... " + (items.size() - 10) + " more");
        break;
      }
      shown.add(render.apply(item));
    }
    return "[" + String.join(", ", shown) + "]";
  }

  static String unsignedList(List<Long> ids) {
    return list(ids, Formats::unsigned);
  }

  /** Field ids as dotted paths where the schema knows them ("point.x"), else {@code #id}. */
  static String fieldNames(Schema schema, List<Integer> ids) {
    Map<Integer, Field> byId = schema.byId();
    return list(ids, id -> {
      Field f = byId.get(id);
      return f == null ? "#" + id : schema.path(f);
    });
  }

  /** The deletion file's name under {@code _deletions/}, or {@link #NONE}. */
  static String deletionFile(long fragmentId, Optional<DeletionFile> file) {
    if (file.isEmpty()) {
      return NONE;
    }
    DeletionFile d = file.get();
    try {
      return d.fileName(fragmentId);
    } catch (IllegalStateException unknownKind) {
      return unsigned(fragmentId) + "-" + unsigned(d.readVersion()) + "-" + unsigned(d.id())
          + ".? (type " + d.kindValue() + ")";
    }
  }

  /** {@code k=v, k2=v2} sorted by key, or {@link #NONE}. */
  static String keyValues(Map<String, String> map) {
    if (map.isEmpty()) {
      return NONE;
    }
    List<String> parts = new ArrayList<>();
    new TreeMap<>(map).forEach((k, v) -> parts.add(k + "=" + v));
    return String.join(", ", parts);
  }

  /** {@code 1 fragment}, {@code 3 fragments}. */
  static String count(long n, String noun) {
    return count(n, noun, noun + "s");
  }

  static String count(long n, String singular, String plural) {
    return n + " " + (n == 1 ? singular : plural);
  }
}
