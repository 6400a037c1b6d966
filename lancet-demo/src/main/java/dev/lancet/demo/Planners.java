package dev.lancet.demo;

import dev.lancet.core.action.AssertUniqueKeys;
import dev.lancet.core.action.Ref;
import dev.lancet.core.deletion.DeletionFiles;
import dev.lancet.datafile.lance.LanceDataFiles;
import dev.lancet.format.deletion.DeletionVector;
import dev.lancet.format.model.DataFile;
import dev.lancet.format.model.DeletionFile;
import dev.lancet.format.model.Field;
import dev.lancet.format.model.Fragment;
import dev.lancet.format.model.Manifest;
import dev.lancet.table.keys.KeyFilterBuilder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * The demo writers' planners, each as a real application would write it: read the version,
 * write real Lance files (or a deletion file) for the change, and spell the change as
 * Transaction V2 actions.
 */
final class Planners {
  private Planners() {}

  /**
   * Inserts {@code ids} that do not exist yet at the read version (looked up with lance-core),
   * as one new fragment, asserting that no concurrent commit inserts any of them.
   */
  static Planner appendIfAbsent(DemoLocation dir, List<Long> ids) {
    return (table, read) -> {
      long lo = Collections.min(ids);
      long hi = Collections.max(ids);
      Set<Long> existing = new TreeSet<>();
      for (LanceReads.Row r : LanceReads.scan(dir, read.version(),
          Optional.of(DemoRows.ID + " >= " + lo + " AND " + DemoRows.ID + " <= " + hi))) {
        existing.add(r.id());
      }
      List<Long> fresh = ids.stream().filter(id -> !existing.contains(id)).toList();
      if (fresh.isEmpty()) {
        throw new IllegalStateException("every id of " + lo + ".." + hi + " already exists at version "
            + read.version() + "; nothing to append");
      }
      DataFile file;
      AssertUniqueKeys assertion;
      try (BufferAllocator alloc = new RootAllocator();
          VectorSchemaRoot root = DemoRows.idsAndValues(alloc, fresh)) {
        file = LanceDataFiles.write(dir.uri(), dir.storageOptions(), root);
        assertion = new AssertUniqueKeys(List.of(Ref.committed(fieldId(read.manifest(), DemoRows.ID))),
            KeyFilterBuilder.build(List.<FieldVector>of(root.getVector(DemoRows.ID))));
      }
      int id = fieldId(read.manifest(), DemoRows.ID);
      int value = fieldId(read.manifest(), DemoRows.VALUE);
      String what = "append ids " + lo + ".." + hi + " (" + fresh.size() + " rows"
          + (existing.isEmpty() ? "" : "; skips existing " + existing) + ")";
      return table.newTransaction().readVersion(read.version())
          .step(what, s -> s.addFragment(0, fresh.size())
              .addDataFile(Ref.local(0), file, Ref.committed(id), Ref.committed(value))
              .action(assertion));
    };
  }

  /** Adds the {@code score} column with a data file for each listed fragment still present. */
  static Planner addScoreColumn(DemoLocation dir, Map<Long, List<Long>> idsByFragment) {
    return (table, read) -> {
      Map<Long, DataFile> files = new LinkedHashMap<>();
      try (BufferAllocator alloc = new RootAllocator()) {
        for (var e : idsByFragment.entrySet()) {
          if (read.manifest().fragment(e.getKey()).isPresent()) {
            try (VectorSchemaRoot root = DemoRows.scores(alloc, e.getValue())) {
              files.put(e.getKey(), LanceDataFiles.write(dir.uri(), dir.storageOptions(), root));
            }
          }
        }
      }
      Field score = Field.builder(0, DemoRows.SCORE, "int32").nullable(true).build();
      return table.newTransaction().readVersion(read.version())
          .step("add column score = id * 10 to fragments " + files.keySet(), s -> {
            s.addField(0, score);
            files.forEach((fragment, file) -> s.addDataFile(Ref.committed(fragment), file, Ref.local(0)));
          });
    };
  }

  /**
   * Deletes {@code ids} from {@code fragment}: merges them into the fragment's deletion vector
   * as of the read version and writes the result as a new deletion file.
   */
  static Planner deleteRows(List<Long> physicalIds, long fragment, Set<Long> ids) {
    return (table, read) -> {
      Fragment target = read.manifest().fragment(fragment).orElseThrow(() -> new IllegalStateException(
          "fragment " + fragment + " is gone at version " + read.version()));
      DeletionVector before;
      try {
        before = DeletionFiles.current(table.store(), target);
      } catch (IOException e) {
        throw new UncheckedIOException("reading the deletion file of fragment " + fragment, e);
      }
      List<Integer> offsets = new ArrayList<>();
      for (int offset = 0; offset < physicalIds.size(); offset++) {
        if (ids.contains(physicalIds.get(offset))) {
          offsets.add(offset);
        }
      }
      DeletionVector after = before.union(DeletionVector.of(offsets.stream().mapToInt(i -> i).toArray()));
      DeletionFile file;
      try {
        file = DeletionFiles.write(table.store(), fragment, read.version(), after);
      } catch (IOException e) {
        throw new UncheckedIOException("writing a deletion file of fragment " + fragment, e);
      }
      String what = "delete " + ids.size() + " rows of fragment " + fragment
          + (before.isEmpty() ? "" : " (merged into " + before.cardinality() + " already deleted)");
      return table.newTransaction().readVersion(read.version())
          .step(what, s -> s.setDeletionFile(fragment, file));
    };
  }

  /**
   * Rewrites the {@code value} column of {@code fragment}: a new data file for it replaces the
   * old slot (TombstoneFieldData, then AddDataFile of the same field).
   */
  static Planner rewriteValues(DemoLocation dir, List<Long> physicalIds, long fragment) {
    return (table, read) -> {
      DataFile file;
      try (BufferAllocator alloc = new RootAllocator();
          VectorSchemaRoot root = DemoRows.values(alloc, physicalIds, DemoRows::rewrittenValue)) {
        file = LanceDataFiles.write(dir.uri(), dir.storageOptions(), root);
      }
      int value = fieldId(read.manifest(), DemoRows.VALUE);
      return table.newTransaction().readVersion(read.version())
          .step("rewrite column value of fragment " + fragment, s -> s
              .tombstone(Ref.committed(fragment), Ref.committed(value))
              .addDataFile(Ref.committed(fragment), file, Ref.committed(value)));
    };
  }

  private static int fieldId(Manifest manifest, String name) {
    for (Field f : manifest.schema().fields()) {
      if (f.isTopLevel() && f.name().equals(name)) {
        return f.id();
      }
    }
    throw new IllegalStateException("the table has no column " + name);
  }
}
