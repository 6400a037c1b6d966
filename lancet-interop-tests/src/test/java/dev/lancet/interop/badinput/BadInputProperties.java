package dev.lancet.interop.badinput;

import dev.lancet.core.action.Action;
import dev.lancet.core.action.AddBase;
import dev.lancet.core.action.AddDataFile;
import dev.lancet.core.action.AddField;
import dev.lancet.core.action.AddFragment;
import dev.lancet.core.action.AddIndexSegment;
import dev.lancet.core.action.CompositeOperation;
import dev.lancet.core.action.ConfigUpdate;
import dev.lancet.core.action.Ref;
import dev.lancet.core.action.SetDeletionFile;
import dev.lancet.core.action.UpdateMap;
import dev.lancet.core.action.UserStep;
import dev.lancet.core.apply.ApplyException;
import dev.lancet.core.commit.DamagedTableException;
import dev.lancet.core.commit.ReadVersionUnavailableException;
import dev.lancet.format.model.BasePath;
import dev.lancet.format.model.DataFile;
import dev.lancet.format.model.DeletionFile;
import dev.lancet.format.model.Field;
import dev.lancet.format.model.LogicalTypes;
import dev.lancet.interop.badinput.BadInput.Composite;
import dev.lancet.interop.badinput.BadInput.Damage;
import dev.lancet.interop.badinput.BadInput.Expect;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * Generated bad inputs (issue 10, "Done when"): a random composite operation of harmless steps
 * with one random defect put into a random step, submitted through the Java API or through
 * {@code lancet commit} at random; and random damage to a copy of the table followed by an
 * ordinary commit. Every one ends in its typed error, names the step the defect is in, writes
 * nothing, and leaves the table as Lancet and lance-core 7.0.0 read it before.
 */
class BadInputProperties {
  private static Path root;
  private static BadInputTable table;
  private static final AtomicInteger COPIES = new AtomicInteger();
  private static final AtomicInteger RUNS = new AtomicInteger();

  @BeforeContainer
  static void buildTheTable() throws Exception {
    root = Files.createTempDirectory("lancet-bad-input-properties");
    table = BadInputTable.create(root.resolve("shared"));
  }

  @AfterContainer
  static void summary() {
    System.out.println("[bad-input properties] " + RUNS.get() + " generated cases ended in their error with nothing written");
  }

  /** A defect: the actions that carry it, and the text the error must contain. */
  record Defect(String name, List<Action> actions, String text, boolean allowBases) {}

  @Property(tries = 120)
  void aRandomOperationWithOneDefectEndsInInvalidInput(@ForAll("operations") Planted planted,
      @ForAll boolean throughTheCommandLine) throws Exception {
    BadInput c = new BadInput("generated", planted.defect().name(),
        new Composite(planted.op(), BadInput.LATEST, planted.defect().allowBases()), Damage.NONE,
        new Expect(ApplyException.class, BadInputs.INVALID, planted.defect().text()));
    run(table, c, throughTheCommandLine);
    // The error names the step the defect was planted in.
    String step = "step " + (planted.step() + 1) + " ('" + planted.op().steps().get(planted.step()).description() + "')";
    BadInput located = new BadInput(c.category(), c.name(), c.submission(), c.damage(),
        new Expect(ApplyException.class, BadInputs.INVALID, step));
    run(table, located, !throughTheCommandLine);
  }

  @Property(tries = 12)
  void aCommitOnADamagedTableEndsInItsTypedError(@ForAll("damages") BadInput c, @ForAll boolean throughTheCommandLine)
      throws Exception {
    BadInputTable copy = BadInputTable.create(root.resolve("damaged-" + COPIES.incrementAndGet()));
    c.damage().apply(copy);
    run(copy, c, throughTheCommandLine);
  }

  private static void run(BadInputTable t, BadInput c, boolean cli) throws Exception {
    if (cli) {
      BadInputRunner.throughTheCommandLine(t, c, t.version, root.resolve("scratch"));
    } else {
      BadInputRunner.throughTheApi(t, c, t.version);
    }
    RUNS.incrementAndGet();
  }

  /** An operation and the index of the step holding its defect. */
  record Planted(CompositeOperation op, int step, Defect defect) {}

  @Provide
  Arbitrary<Planted> operations() {
    Arbitrary<List<List<Action>>> harmless = harmlessStep().list().ofMinSize(0).ofMaxSize(3);
    return Combinators.combine(harmless, harmless, defects()).as((before, after, defect) -> {
      List<UserStep> steps = new ArrayList<>();
      for (List<Action> s : before) {
        steps.add(new UserStep("harmless " + steps.size(), s));
      }
      int at = steps.size();
      steps.add(new UserStep("defect: " + defect.name().replace('\'', '"'), defect.actions()));
      for (List<Action> s : after) {
        steps.add(new UserStep("harmless " + steps.size(), s));
      }
      return new Planted(new CompositeOperation(steps), at, defect);
    });
  }

  private Arbitrary<List<Action>> harmlessStep() {
    Arbitrary<Action> config = Combinators.combine(Arbitraries.strings().alpha().ofMinLength(1).ofMaxLength(8),
        Arbitraries.strings().alpha().ofMaxLength(8))
        .as((k, v) -> ConfigUpdate.ofConfig(UpdateMap.set("gen." + k, v)));
    return config.list().ofMinSize(1).ofMaxSize(3);
  }

  private Arbitrary<Defect> defects() {
    return Arbitraries.oneOf(badPaths(), badRows(), unknownFields(), badNames(), badTypes(), badBases(),
        missingFragments(), unbackedFragment(), indexOverUnknownField());
  }

  /** A path built from ordinary segments with one bad element somewhere in it. */
  private Arbitrary<Defect> badPaths() {
    Arbitrary<String> segment = Arbitraries.strings().withCharRange('a', 'z').numeric().ofMinLength(1).ofMaxLength(6);
    Arbitrary<String[]> bad = Arbitraries.of(new String[] {"..", "'..'"}, new String[] {".", "'.'"},
        new String[] {"", "empty segment"}, new String[] {"a\\b", "backslash"}, new String[] {"x\u0000", "NUL"},
        new String[] {"t\tab", "control character"});
    return Combinators.combine(segment.list().ofMinSize(0).ofMaxSize(3), bad, segment.list().ofMinSize(1).ofMaxSize(3),
        Arbitraries.of("file", "overlay", "index"))
        .as((pre, b, post, site) -> {
          List<String> parts = new ArrayList<>(pre);
          parts.add(b[0]);
          for (String p : post) {
            parts.add(p + ".lance");
          }
          String path = String.join("/", parts);
          Action action = switch (site) {
            case "overlay" -> new dev.lancet.core.action.AddOverlays(Ref.committed(0), List.of(
                new dev.lancet.format.model.DataOverlayFile(new DataFile(path, List.of(1), List.of(0), 2, 1, 64),
                    new dev.lancet.format.model.DataOverlayFile.SharedCoverage(
                        dev.lancet.format.model.IndexSegment.fragmentBitmapOf(List.of(0L))), 0,
                    com.google.protobuf.UnknownFieldSet.getDefaultInstance())), true);
            case "index" -> index(List.of(Ref.committed(0)), path);
            default -> null;
          };
          List<Action> actions = action != null ? List.of(action)
              : List.of(BadInputs.append(BadInputs.at(table, path), 10));
          // An empty first segment makes the path absolute, which is reported as such.
          String named = b[0].isEmpty() && pre.isEmpty() ? "absolute" : b[1];
          return new Defect(site + " path " + dev.lancet.format.Texts.quote(path), actions, named, false);
        });
  }

  private static AddIndexSegment index(List<Ref> fields, String file) {
    return new AddIndexSegment(UUID.randomUUID(), "gen_idx", fields, Optional.empty(), OptionalInt.of(0),
        Optional.of(List.of(Ref.committed(0))),
        file == null ? List.of() : List.of(new dev.lancet.format.model.IndexSegment.IndexFile(file, 64,
            com.google.protobuf.UnknownFieldSet.getDefaultInstance())),
        false, Optional.empty(), OptionalLong.empty(), OptionalLong.empty(), List.of());
  }

  private Arbitrary<Defect> badRows() {
    return Arbitraries.oneOf(Arbitraries.just(0L), Arbitraries.longs().between((1L << 32) + 1, Long.MAX_VALUE),
        Arbitraries.longs().between(Long.MIN_VALUE, -1))
        .map(rows -> new Defect("physical_rows " + Long.toUnsignedString(rows), List.of(BadInputs.append(table.goodFile, rows)),
            "physical_rows", false));
  }

  private Arbitrary<Defect> unknownFields() {
    return Arbitraries.integers().between(2, 100_000).map(id -> new Defect("a data file storing field " + id,
        List.of(AddFragment.local(0, 10), new AddDataFile(Ref.local(0), table.goodFile,
            List.of(Ref.committed(0), Ref.committed(id)), true)), "stores field " + id + ", which does not exist", false));
  }

  private Arbitrary<Defect> badNames() {
    Arbitrary<String[]> names = Arbitraries.oneOf(
        Arbitraries.of(new String[] {"", "empty name"}, new String[] {"id", "two fields are named"},
            new String[] {"name", "two fields are named"}, new String[] {"_rowid", "system column"},
            new String[] {"_rowaddr", "system column"}, new String[] {"_rowoffset", "system column"}),
        Combinators.combine(Arbitraries.strings().alpha().ofMinLength(1).ofMaxLength(5),
            Arbitraries.strings().alpha().ofMinLength(1).ofMaxLength(5)).as((a, b) -> new String[] {a + "." + b, "'.'"}));
    return names.map(n -> new Defect("a field named " + dev.lancet.format.Texts.quote(n[0]),
        List.of(AddField.topLevel(0, Field.builder(0, n[0], "int32").build())), n[1], false));
  }

  private Arbitrary<Defect> badTypes() {
    return Arbitraries.strings().withCharRange('a', 'z').withChars(':', '_', '0', '9').ofMinLength(1).ofMaxLength(14)
        .filter(t -> LogicalTypes.problem(t) != null && LogicalTypes.shape(t) == LogicalTypes.Shape.LEAF)
        .map(t -> new Defect("a field of type " + dev.lancet.format.Texts.quote(t),
            List.of(AddField.topLevel(0, Field.builder(0, "typed", t).build())), "logical type", false));
  }

  private Arbitrary<Defect> badBases() {
    Arbitrary<Defect> denied = Arbitraries.of("/etc", "/", "s3://someone-else/bucket", "file:///home", "gs://b/x")
        .map(p -> new Defect("a base path at " + p + " without permission",
            List.of(new AddBase(0, new BasePath(0, Optional.of("b"), false, p))), "base-path policy", false));
    Arbitrary<Defect> malformed = Arbitraries.of(BadInputs.BAD_BASE_PATHS)
        .map(p -> new Defect("a malformed base path", List.of(new AddBase(0, new BasePath(0, Optional.of("b"), false, p[0]))),
            p[1], true));
    return Arbitraries.oneOf(denied, malformed);
  }

  private Arbitrary<Defect> missingFragments() {
    return Arbitraries.longs().between(4, 1L << 40).map(id -> new Defect("a deletion of fragment " + id,
        List.of(new SetDeletionFile(id, Optional.of(new DeletionFile(DeletionFile.Kind.BITMAP, 1, 1, 1)), true)),
        "fragment " + id + ", which does not exist", false));
  }

  private Arbitrary<Defect> unbackedFragment() {
    return Arbitraries.longs().between(1, 1_000_000).map(rows -> new Defect("a fragment of " + rows + " rows with no file",
        List.of(AddFragment.local(0, rows)), "has no data files", false));
  }

  private Arbitrary<Defect> indexOverUnknownField() {
    return Arbitraries.integers().between(2, 100_000).map(id -> new Defect("an index over field " + id,
        List.of(index(List.of(Ref.committed(id)), null)), "indexes field " + id + ", which does not exist", false));
  }

  @Provide
  Arbitrary<BadInput> damages() {
    Arbitrary<BadInput> garbage = Arbitraries.bytes().array(byte[].class).ofMinSize(1).ofMaxSize(64)
        .filter(b -> !decodes(b))
        .map(bytes -> new BadInput("generated damage", "a garbage .txn under the latest version",
            new Composite(BadInputs.op(ConfigUpdate.ofConfig(UpdateMap.set("k", "v"))), BadInput.LATEST, false),
            t -> garbageLatest(t, bytes), new Expect(DamagedTableException.class, BadInputs.INVALID, "cannot be read")));
    Arbitrary<BadInput> cleanedUp = Arbitraries.integers().between(2, 4).map(extra -> new BadInput("generated damage",
        "the read version cleaned up under " + extra + " new versions",
        new Composite(BadInputs.op(ConfigUpdate.ofConfig(UpdateMap.set("late", "v"))), BadInput.BEFORE_DAMAGE, false),
        t -> cleanUp(t, extra), new Expect(ReadVersionUnavailableException.class, BadInputs.RETRYABLE, "no longer exists")));
    return Arbitraries.oneOf(garbage, cleanedUp);
  }

  private static boolean decodes(byte[] bytes) {
    try {
      dev.lancet.format.layout.TransactionFile.decode(bytes, "probe");
      return true;
    } catch (RuntimeException e) {
      return false;
    }
  }

  private static void garbageLatest(BadInputTable t, byte[] bytes) throws Exception {
    try (dev.lancet.core.Table table = dev.lancet.core.Table.open(t.dir.toString())) {
      table.newTransaction().step("before the damage", s -> s.setConfig("damaged", "soon")).commit();
      Files.write(t.dir.resolve("_transactions").resolve(table.latest().manifest().transactionFile()), bytes);
    }
  }

  /** {@code extra} new versions, then the first of them is removed (the read version's first successor). */
  private static void cleanUp(BadInputTable t, int extra) throws Exception {
    try (dev.lancet.core.Table table = dev.lancet.core.Table.open(t.dir.toString())) {
      long v = table.latest().version();
      for (int i = 0; i < extra; i++) {
        int n = i;
        table.newTransaction().step("later " + n, s -> s.setConfig("later" + n, "1")).commit();
      }
      new dev.lancet.core.store.LocalObjectStore(t.dir).delete(
          dev.lancet.format.layout.ManifestNaming.V2.path(v + 1));
    }
  }
}
