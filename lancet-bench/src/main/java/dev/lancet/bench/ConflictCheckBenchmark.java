package dev.lancet.bench;

import dev.lancet.core.action.Action;
import dev.lancet.core.action.AddDataFile;
import dev.lancet.core.action.AddFragment;
import dev.lancet.core.action.CompositeOperation;
import dev.lancet.core.action.Ref;
import dev.lancet.core.action.SetDeletionFile;
import dev.lancet.core.action.UserStep;
import dev.lancet.core.conflict.ConflictResult;
import dev.lancet.core.conflict.Conflicts;
import dev.lancet.core.conflict.Footprint;
import dev.lancet.format.model.DataFile;
import dev.lancet.format.model.DeletionFile;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
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
 * The conflict check of a large composite transaction against many concurrent winners (pure, one
 * thread, no I/O). Ours is {@code actions} actions in {@link ApplyBenchmark}'s mix: appends,
 * deletion files, column re-encodes (tombstone + data file), fragment removals and config edits,
 * each on its own committed fragment (ids {@code 0..~0.4 * actions}). The {@code winners} winners
 * alternate between an append of {@code winnerSize} new fragments (AddFragment + AddDataFile each)
 * and {@code winnerSize} deletion files on other committed fragments (ids from 1,000,000). None of
 * them conflicts with ours (checked in set-up), so every check runs to the end.
 *
 * <ul>
 *   <li>{@link #checkAll}: {@code Conflicts.check(ours, winner)} for every winner, footprints
 *       computed beforehand.
 *   <li>{@link #footprintOfOurs}: {@code Footprint.of} of our operation.
 *   <li>{@link #footprintOursAndCheckAll}: both, as a commit that meets all winners at once does
 *       (plus the winners' own footprints, see {@link #footprintWinners}).
 *   <li>{@link #footprintWinners}: {@code Footprint.of} of every winner.
 * </ul>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g", "-XX:+AlwaysPreTouch"})
public class ConflictCheckBenchmark {

  @Param({"10000"})
  public int actions;

  @Param({"100"})
  public int winners;

  /** Fragments appended, or deletion files set, by each winner. */
  @Param({"20"})
  public int winnerSize;

  CompositeOperation ours;
  List<CompositeOperation> theirs;
  Footprint ourFootprint;
  List<Footprint> theirFootprints;

  @Setup(Level.Trial)
  public void setUp() {
    ours = ApplyBenchmark.operation(actions, 1_000_000);
    theirs = winners(winners, winnerSize);
    ourFootprint = Footprint.of(ours);
    theirFootprints = theirs.stream().map(Footprint::of).toList();
    for (int i = 0; i < theirFootprints.size(); i++) {
      ConflictResult r = Conflicts.check(ourFootprint, theirFootprints.get(i));
      if (r.conflicts()) {
        throw new IllegalStateException("winner " + i + " conflicts: " + r.collisions());
      }
    }
    if (ourFootprint.claims().size() < actions / 4) {
      throw new IllegalStateException("our footprint is unexpectedly small: "
          + ourFootprint.claims().size() + " claims");
    }
  }

  /** Alternating appends and deletions, each of {@code size} fragments, none touching ours. */
  static List<CompositeOperation> winners(int count, int size) {
    List<CompositeOperation> out = new ArrayList<>(count);
    long nextFragment = 1_000_000;
    for (int w = 0; w < count; w++) {
      List<Action> acts = new ArrayList<>();
      for (int j = 0; j < size; j++) {
        if (w % 2 == 0) {
          acts.add(AddFragment.local(j, 100));
          acts.add(new AddDataFile(Ref.local(j), new DataFile("w" + w + "-" + j + ".lance",
              List.of(), List.of(0, 1, 2), 2, 1, 4096),
              List.of(Ref.committed(0), Ref.committed(1), Ref.committed(2)), true));
        } else {
          long f = nextFragment++;
          acts.add(new SetDeletionFile(f, Optional.of(new DeletionFile(
              DeletionFile.Kind.ARROW_ARRAY, 10 + w, f, 3)), true));
        }
      }
      out.add(new CompositeOperation(List.of(new UserStep("winner " + w, acts))));
    }
    return out;
  }

  @Benchmark
  public int checkAll() {
    int collisions = 0;
    for (Footprint t : theirFootprints) {
      collisions += Conflicts.check(ourFootprint, t).collisions().size();
    }
    return collisions;
  }

  @Benchmark
  public Footprint footprintOfOurs() {
    return Footprint.of(ours);
  }

  @Benchmark
  public int footprintOursAndCheckAll() {
    Footprint mine = Footprint.of(ours);
    int collisions = 0;
    for (Footprint t : theirFootprints) {
      collisions += Conflicts.check(mine, t).collisions().size();
    }
    return collisions;
  }

  @Benchmark
  public int footprintWinners() {
    int claims = 0;
    for (CompositeOperation op : theirs) {
      claims += Footprint.of(op).claims().size();
    }
    return claims;
  }
}
