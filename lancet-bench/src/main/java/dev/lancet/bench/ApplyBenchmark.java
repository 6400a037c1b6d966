package dev.lancet.bench;

import dev.lancet.core.action.Action;
import dev.lancet.core.action.AddDataFile;
import dev.lancet.core.action.AddFragment;
import dev.lancet.core.action.CompositeOperation;
import dev.lancet.core.action.ConfigUpdate;
import dev.lancet.core.action.Ref;
import dev.lancet.core.action.RemoveFragment;
import dev.lancet.core.action.SetDeletionFile;
import dev.lancet.core.action.TombstoneFieldData;
import dev.lancet.core.action.UpdateMap;
import dev.lancet.core.action.UserStep;
import dev.lancet.core.apply.CompositeApply;
import dev.lancet.format.model.DataFile;
import dev.lancet.format.model.DeletionFile;
import dev.lancet.format.model.Field;
import dev.lancet.format.model.Fragment;
import dev.lancet.format.model.Manifest;
import dev.lancet.format.model.Schema;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Applying a composite operation (pure, no I/O): {@code actions} actions on a manifest of
 * {@code fragments} fragments. The mix cycles through appends (AddFragment + AddDataFile),
 * deletions, column re-encodes (TombstoneFieldData + AddDataFile), removals and config edits,
 * each on a distinct fragment. Time should grow linearly in both parameters.
 *
 * <p>Run: {@code java -jar lancet-bench/target/lancet-bench.jar ApplyBenchmark}
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xmx4g"})
public class ApplyBenchmark {

  @Param({"10000", "100000"})
  public int fragments;

  @Param({"1000", "10000"})
  public int actions;

  Manifest manifest;
  CompositeOperation operation;

  @Setup(Level.Trial)
  public void setUp() {
    manifest = manifest(fragments);
    operation = operation(actions, fragments);
  }

  static Manifest manifest(int fragments) {
    Schema schema = new Schema(List.of(Field.builder(0, "id", "int64").build(),
        Field.builder(1, "name", "string").build(), Field.builder(2, "score", "double").build()), Map.of());
    List<Fragment> frags = new ArrayList<>(fragments);
    for (int i = 0; i < fragments; i++) {
      frags.add(Fragment.of(i, 1000, List.of(
          new DataFile("f" + i + "-a.lance", List.of(0, 1), List.of(0, 1), 2, 1, 4096),
          new DataFile("f" + i + "-b.lance", List.of(2), List.of(0), 2, 1, 4096))));
    }
    return Manifest.builder().version(10).schema(schema).fragments(frags)
        .maxFragmentId(OptionalLong.of(fragments - 1)).build();
  }

  /** {@code count} actions; each touches its own fragment so that every action is valid. */
  static CompositeOperation operation(int count, int fragments) {
    List<Action> out = new ArrayList<>(count);
    int token = 0;
    int target = 0;
    while (out.size() < count) {
      switch (out.size() / 2 % 5) {
        case 0 -> {
          out.add(AddFragment.local(token, 500));
          out.add(new AddDataFile(Ref.local(token++), new DataFile("n" + token + ".lance", List.of(),
              List.of(0, 1, 2), 2, 1, 100), List.of(Ref.committed(0), Ref.committed(1), Ref.committed(2)), true));
        }
        case 1 -> {
          int f = target++ % fragments;
          out.add(new SetDeletionFile(f, Optional.of(new DeletionFile(DeletionFile.Kind.ARROW_ARRAY, 10, f, 3)), true));
          out.add(ConfigUpdate.ofConfig(UpdateMap.set("k" + (out.size() % 100), "v")));
        }
        case 2 -> {
          int f = target++ % fragments;
          out.add(new TombstoneFieldData(Ref.committed(f), List.of(Ref.committed(2)), false));
          out.add(new AddDataFile(Ref.committed(f), new DataFile("r" + f + ".lance", List.of(), List.of(0), 2, 1, 100),
              List.of(Ref.committed(2)), false));
        }
        case 3 -> {
          out.add(new RemoveFragment(Ref.committed(target++ % fragments), true));
          out.add(ConfigUpdate.ofConfig(UpdateMap.set("t" + (out.size() % 100), "w")));
        }
        default -> {
          int f = target++ % fragments;
          out.add(new SetDeletionFile(f, Optional.of(new DeletionFile(DeletionFile.Kind.BITMAP, 10, f, 7)), true));
          out.add(ConfigUpdate.ofConfig(UpdateMap.remove("k" + (out.size() % 100))));
        }
      }
    }
    return new CompositeOperation(List.of(new UserStep("benchmark", out.subList(0, count))));
  }

  @Benchmark
  public CompositeApply.Result apply() {
    return CompositeApply.apply(manifest, List.of(), operation, manifest.version());
  }
}
