package dev.lancet.core.commit;

import dev.lancet.format.model.DataFile;
import dev.lancet.format.model.DataOverlayFile;
import dev.lancet.format.model.Field;
import dev.lancet.format.model.Fragment;
import dev.lancet.format.model.Manifest;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * What the reliability tests compare: a table reduced to fragments (rows, deleted rows, data
 * files with their field slots, overlays), fields by id and name, and the config map. Built
 * either by projecting a manifest ({@link #of}) or by an independent replay ({@link TableModel}).
 */
public record ModelState(
    SortedMap<Long, FragmentState> fragments,
    SortedMap<Integer, String> fields,
    SortedMap<String, String> config) {

  /** One data file: its path and the field id in each slot (-2 for a tombstoned slot). */
  public record FileState(String path, List<Integer> fields) {
    public FileState {
      fields = List.copyOf(fields);
    }
  }

  /** One overlay: its data file's path and slots, and the version that committed it. */
  public record OverlayState(String path, List<Integer> fields, long committedVersion) {
    public OverlayState {
      fields = List.copyOf(fields);
    }
  }

  public record FragmentState(long id, long physicalRows, long deletedRows, List<FileState> files,
      List<OverlayState> overlays) {
    public FragmentState {
      files = List.copyOf(files);
      overlays = List.copyOf(overlays);
    }

    public long liveRows() {
      return physicalRows - deletedRows;
    }
  }

  public ModelState {
    fragments = Collections.unmodifiableSortedMap(new TreeMap<>(fragments));
    fields = Collections.unmodifiableSortedMap(new TreeMap<>(fields));
    config = Collections.unmodifiableSortedMap(new TreeMap<>(config));
  }

  /** The manifest reduced to what the model tracks. */
  public static ModelState of(Manifest m) {
    SortedMap<Long, FragmentState> fragments = new TreeMap<>();
    for (Fragment f : m.fragments()) {
      List<FileState> files = new ArrayList<>();
      for (DataFile d : f.files()) {
        files.add(new FileState(d.path(), d.fields()));
      }
      List<OverlayState> overlays = new ArrayList<>();
      for (DataOverlayFile o : f.overlays()) {
        overlays.add(new OverlayState(o.dataFile().path(), o.dataFile().fields(), o.committedVersion()));
      }
      long deleted = f.deletionFile().map(d -> d.numDeletedRows()).orElse(0L);
      fragments.put(f.id(), new FragmentState(f.id(), f.physicalRows(), deleted, files, overlays));
    }
    SortedMap<Integer, String> fields = new TreeMap<>();
    for (Field f : m.schema().fields()) {
      fields.put(f.id(), f.name());
    }
    return new ModelState(fragments, fields, new TreeMap<>(m.config()));
  }

  public long liveRows() {
    long n = 0;
    for (FragmentState f : fragments.values()) {
      n += f.liveRows();
    }
    return n;
  }
}
