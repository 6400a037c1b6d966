package dev.lancet.interop.mixed;

import dev.lancet.interop.lance.LanceFixtures;
import dev.lancet.interop.statements.KeyValueRows;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.ipc.ArrowReader;

/**
 * The shared table of the mixed-writers test ({@link LanceFixtures#SIMPLE_SCHEMA}: {@code id},
 * {@code name}) and who owns which ids, so that every writer knows its own rows exactly and the
 * checker can replay what each was told.
 *
 * <p>lance-core creates ids 0..299 in three fragments of 100. Initial ids with {@code id % 3 ==
 * w + 1} belong to Lancet writer {@code w} (it deletes and updates them); ids with {@code id % 3
 * == 0} are never changed. Lancet writer {@code w} appends and inserts fresh ids from {@link
 * #lancetBase}; the lance-core ingestion worker appends from {@link #LANCE_APPEND_BASE}.
 */
final class MixedTable {
  static final int INITIAL_ROWS = 300;
  static final int ROWS_PER_FRAGMENT = 100;
  static final int LANCET_WRITERS = 2;
  static final long LANCE_APPEND_BASE = 10_000_000;

  /** The table config key that chooses Lancet's write form (issue #15 point 1). */
  static final String WRITE_FORM_KEY = "lancet.write_form";

  /** The config key lance-core's maintenance worker updates. */
  static final String MAINTENANCE_KEY = "maintenance.round";

  private MixedTable() {}

  /** The first id Lancet writer {@code w} appends or inserts. */
  static long lancetBase(int w) {
    return 1_000_000L * (w + 1);
  }

  /** The initial ids Lancet writer {@code w} owns. */
  static List<Long> initialIds(int w) {
    List<Long> out = new ArrayList<>();
    for (long id = 0; id < INITIAL_ROWS; id++) {
      if (id % 3 == w + 1) {
        out.add(id);
      }
    }
    return out;
  }

  /** The value a merge insert of writer {@code w} in round {@code round} gives row {@code id}. */
  static String mergedValue(int w, int round, long id) {
    return "w" + w + "-r" + round + "-" + id;
  }

  /** Creates the table with lance-core: ids 0..299 in three fragments (versions 1 to 3). */
  static Path create(Path parent) {
    Path dir = parent.resolve("mixed");
    for (long start = 0; start < INITIAL_ROWS; start += ROWS_PER_FRAGMENT) {
      LanceFixtures.append(dir, LanceFixtures.SIMPLE_SCHEMA, start, ROWS_PER_FRAGMENT);
    }
    return dir;
  }

  /** The text a reader's value is compared as: lance-core's canonical form, "null" for null. */
  static String canonical(String value) {
    return value == null ? "null" : value;
  }

  /** Every (id, canonical name) of a Lancet scan; fails on a duplicate id. */
  static Map<Long, String> read(ArrowReader reader) throws IOException {
    Map<Long, String> out = new TreeMap<>();
    KeyValueRows.read(reader, "name").forEach((id, name) -> out.put(id, canonical(name)));
    return out;
  }

  /** One batch of (id, name) rows of the table's schema, for Lancet appends and merge inserts. */
  static KeyValueRows batch(BufferAllocator allocator, Map<Long, String> rows) {
    return new KeyValueRows(allocator, new TreeMap<>(rows), LanceFixtures.SIMPLE_SCHEMA);
  }
}
