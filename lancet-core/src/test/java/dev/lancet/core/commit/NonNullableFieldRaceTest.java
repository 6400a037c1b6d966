package dev.lancet.core.commit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancet.core.action.Action;
import dev.lancet.core.action.AddDataFile;
import dev.lancet.core.action.AddField;
import dev.lancet.core.action.AddFragment;
import dev.lancet.core.action.AlterField;
import dev.lancet.core.action.CompositeOperation;
import dev.lancet.core.action.Ref;
import dev.lancet.core.action.UserStep;
import dev.lancet.core.store.LocalObjectStore;
import dev.lancet.core.version.Snapshot;
import dev.lancet.format.layout.ManifestFile;
import dev.lancet.format.layout.ManifestNaming;
import dev.lancet.format.model.DataFile;
import dev.lancet.format.model.DataStorageFormat;
import dev.lancet.format.model.Field;
import dev.lancet.format.model.Fragment;
import dev.lancet.format.model.Manifest;
import dev.lancet.format.model.Schema;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The seed's §5.2 guard on a real table: a commit that makes a field non-nullable and a
 * concurrent append of rows without data for it, in both orders. The second one to commit gets
 * a retryable conflict, and no version ever has a non-nullable field without data in some
 * fragment (the invariant is checked on every version of the table).
 */
class NonNullableFieldRaceTest {
  private static final CommitPolicy POLICY = new CommitPolicy(10, Duration.ofSeconds(30), Duration.ofMillis(1));

  @TempDir Path dir;

  private LocalObjectStore table(String name) throws Exception {
    LocalObjectStore store = new LocalObjectStore(dir.resolve(name));
    Manifest v1 = Manifest.builder().version(1)
        .schema(new Schema(List.of(Field.builder(0, "id", "int64").nullable(false).build(),
            Field.builder(1, "v", "int64").build()), Map.of()))
        .fragments(List.of(Fragment.of(0, 10, List.of(new DataFile("seed.lance", List.of(0, 1), List.of(0, 1), 2, 1, 100)))))
        .maxFragmentId(OptionalLong.of(0))
        .dataFormat(Optional.of(new DataStorageFormat("lance", "2.1")))
        .build();
    store.put(ManifestNaming.V2.path(1), ManifestFile.write(v1, List.of(), Optional.empty()));
    return store;
  }

  private static CompositeOperation op(String description, Action... actions) {
    return new CompositeOperation(List.of(new UserStep(description, List.of(actions))));
  }

  /** Rows with data for field 0 only: field 1 reads as null in them. */
  private static CompositeOperation appendWithoutV(String file) {
    return op("append without v", AddFragment.local(0, 5),
        new AddDataFile(Ref.local(0), new DataFile(file, List.of(-1), List.of(0), 2, 1, 10), List.of(Ref.committed(0)), true));
  }

  private static final CompositeOperation REQUIRE_V = op("make v non-nullable",
      new AlterField(Ref.committed(1), Optional.empty(), Optional.empty(), Optional.of(false)));

  /** A new non-nullable column w, backfilled into fragment 0. */
  private static final CompositeOperation ADD_REQUIRED_W = op("add non-nullable w",
      AddField.topLevel(0, Field.builder(0, "w", "int64").nullable(false).build()),
      new AddDataFile(Ref.committed(0), new DataFile("w-0.lance", List.of(-1), List.of(0), 2, 1, 10),
          List.of(Ref.local(0)), true));

  @Test
  void makingAFieldNonNullableAndAnAppendWithoutItNeverBothLand() throws Exception {
    for (CompositeOperation tighten : List.of(REQUIRE_V, ADD_REQUIRED_W)) {
      for (boolean appendFirst : new boolean[] {false, true}) {
        String name = tighten.steps().get(0).description().replace(' ', '-') + "-" + appendFirst;
        LocalObjectStore store = table(name);
        Ledger ledger = new Ledger();
        ContractCommitter committer = new ContractCommitter(store, dir.resolve(name).toString(), POLICY, ledger);
        CompositeOperation append = appendWithoutV(name + "-append.lance");
        place(store, name + "-append.lance", "w-0.lance");

        ContractCommitter.Outcome first = committer.commit(1, appendFirst ? append : tighten);
        ContractCommitter.Outcome second = committer.commit(1, appendFirst ? tighten : append);

        assertThat(first.acknowledged()).as(name).isTrue();
        assertThat(second.rejection()).as(name).containsInstanceOf(ConflictingCommitException.class);
        assertThat(String.join("; ", ((ConflictingCommitException) second.rejection().orElseThrow()).collisions()))
            .as(name).contains("NULLABILITY");
        assertEveryNonNullableFieldIsBacked(store, dir.resolve(name).toString());
        assertThat(ledger.surprises()).isEmpty();
      }
    }
  }

  /** The guard does not stop an append that brings data for the field. */
  @Test
  void anAppendWithTheFieldsDataLandsAfterItWasMadeNonNullable() throws Exception {
    LocalObjectStore store = table("with-v");
    ContractCommitter committer = new ContractCommitter(store, dir.resolve("with-v").toString(), POLICY, new Ledger());
    CompositeOperation appendWithV = op("append with v", AddFragment.local(0, 5),
        new AddDataFile(Ref.local(0), new DataFile("with-v.lance", List.of(-1, -1), List.of(0, 1), 2, 1, 10),
            List.of(Ref.committed(0), Ref.committed(1)), true));
    place(store, "with-v.lance");
    assertThat(committer.commit(1, appendWithV).acknowledged()).isTrue();
    assertThat(committer.commit(1, REQUIRE_V).acknowledged()).isTrue();
    assertEveryNonNullableFieldIsBacked(store, dir.resolve("with-v").toString());
  }

  /** The commit checks that new data files exist with their recorded size (10 bytes here). */
  private static void place(LocalObjectStore store, String... paths) throws Exception {
    for (String path : paths) {
      store.put("data/" + path, new byte[10]);
    }
  }

  private static void assertEveryNonNullableFieldIsBacked(LocalObjectStore store, String location) throws Exception {
    Manifest m = Snapshot.latest(store, location).manifest();
    for (Fragment f : m.fragments()) {
      Set<Integer> backed = new HashSet<>();
      f.files().forEach(d -> backed.addAll(d.fields()));
      for (Field field : m.schema().fields()) {
        if (!field.nullable()) {
          assertThat(backed).as("fragment %d backs non-nullable field %s", f.id(), field.name()).contains(field.id());
        }
      }
    }
  }
}
