package dev.lancet.core.commit;

import dev.lancet.core.store.ObjectStore;
import dev.lancet.format.layout.ManifestFile;
import dev.lancet.format.layout.ManifestNaming;
import dev.lancet.format.model.DataFile;
import dev.lancet.format.model.Field;
import dev.lancet.format.model.Fragment;
import dev.lancet.format.model.Manifest;
import dev.lancet.format.model.Schema;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/** Seed tables for the reliability tests: version 1 written directly, as a fixture. */
public final class TortureTables {
  private TortureTables() {}

  /**
   * Version 1: field {@code id} (0, int64) and {@code fragments} fragments (ids 0..n-1) of
   * {@code rows} rows, each backed by one data file {@code seed-<i>.lance} holding field 0.
   */
  public static Manifest seed(ObjectStore store, int fragments, long rows) throws IOException {
    List<Fragment> list = new ArrayList<>();
    for (int i = 0; i < fragments; i++) {
      list.add(Fragment.of(i, rows, List.of(new DataFile("seed-" + i + ".lance", List.of(0), List.of(0), 2, 1, 100))));
    }
    Manifest v1 = Manifest.builder().version(1)
        .schema(new Schema(List.of(Field.builder(0, "id", "int64").build()), Map.of()))
        .fragments(list)
        .maxFragmentId(fragments == 0 ? OptionalLong.empty() : OptionalLong.of(fragments - 1))
        .build();
    store.putIfAbsent(ManifestNaming.V2.path(1), ManifestFile.write(v1, List.of(), Optional.empty()));
    return v1;
  }
}
