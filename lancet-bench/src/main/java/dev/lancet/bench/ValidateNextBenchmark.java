package dev.lancet.bench;

import dev.lancet.core.apply.CompositeApply;
import dev.lancet.format.layout.BasePathPolicy;
import dev.lancet.format.layout.ManifestValidator;
import dev.lancet.format.model.Manifest;
import java.util.List;
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
 * The manifest checks every commit runs before it writes anything
 * ({@link ManifestValidator#validateNext}, no I/O), on the manifest {@link ApplyBenchmark}'s
 * operation of {@code actions} actions produces from a table of {@code fragments} fragments; and,
 * for comparison, the read rules every open runs on the whole new manifest
 * ({@link ManifestValidator#validate}). The commit's checks should cost in proportion to what it
 * changes, plus a walk over the fragment list.
 *
 * <p>Run: {@code java -jar lancet-bench/target/lancet-bench.jar ValidateNextBenchmark}
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xmx4g"})
public class ValidateNextBenchmark {

  @Param({"100", "100000"})
  public int fragments;

  @Param({"2", "1000"})
  public int actions;

  Manifest previous;
  Manifest next;

  @Setup(Level.Trial)
  public void setUp() {
    previous = ApplyBenchmark.manifest(fragments);
    next = CompositeApply.apply(previous, List.of(), ApplyBenchmark.operation(actions, fragments),
        previous.version()).manifest();
  }

  @Benchmark
  public Manifest validateNext() {
    ManifestValidator.validateNext(previous, List.of(), next, List.of(), BasePathPolicy.denyAll());
    return next;
  }

  @Benchmark
  public Manifest readRulesOnOpen() {
    ManifestValidator.validate(next, "bench");
    return next;
  }
}
