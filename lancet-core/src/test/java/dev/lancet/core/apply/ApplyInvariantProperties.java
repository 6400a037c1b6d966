package dev.lancet.core.apply;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lancet.core.action.Action;
import dev.lancet.core.action.AddDataFile;
import dev.lancet.core.action.AddField;
import dev.lancet.core.action.AddFragment;
import dev.lancet.core.action.AlterField;
import dev.lancet.core.action.CompositeOperation;
import dev.lancet.core.action.ConfigUpdate;
import dev.lancet.core.action.DropField;
import dev.lancet.core.action.Ref;
import dev.lancet.core.action.RemoveFragment;
import dev.lancet.core.action.ReserveFragmentIds;
import dev.lancet.core.action.TombstoneFieldData;
import dev.lancet.core.action.UpdateMap;
import dev.lancet.core.action.UserStep;
import dev.lancet.format.model.DataFile;
import dev.lancet.format.model.Field;
import dev.lancet.format.model.Fragment;
import dev.lancet.format.model.Manifest;
import dev.lancet.format.model.Schema;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/**
 * For random valid action lists, apply yields a manifest that keeps the table's invariants;
 * a random invalid action anywhere in a list rejects the whole list.
 */
class ApplyInvariantProperties {

  /** One abstract step of a random workload; ints pick targets modulo what exists. */
  record Command(int kind, int a, int b) {}

  @Provide
  Arbitrary<List<Command>> workloads() {
    Arbitrary<Command> c = net.jqwik.api.Combinators.combine(Arbitraries.integers().between(0, 7),
        Arbitraries.integers().between(0, 1000), Arbitraries.integers().between(0, 1000)).as(Command::new);
    return c.list().ofMinSize(1).ofMaxSize(25);
  }

  static Manifest base(int fields, int fragments) {
    List<Field> schema = new ArrayList<>();
    List<Integer> ids = new ArrayList<>();
    for (int i = 0; i < fields; i++) {
      schema.add(Field.builder(i, "c" + i, "int64").build());
      ids.add(i);
    }
    List<Fragment> frags = new ArrayList<>();
    for (int f = 0; f < fragments; f++) {
      frags.add(Fragment.of(f, 10 + f, List.of(new DataFile("f" + f + ".lance", ids, List.of(), 2, 1, 1))));
    }
    return Manifest.builder().version(5).schema(new Schema(schema, Map.of())).fragments(frags)
        .maxFragmentId(fragments == 0 ? OptionalLong.empty() : OptionalLong.of(fragments - 1)).build();
  }

  /** Turns commands into valid actions by tracking what exists as the list grows. */
  static List<Action> actions(Manifest m, List<Command> commands) {
    List<Ref> fragments = new ArrayList<>();
    Map<Ref, Long> rows = new HashMap<>();
    for (Fragment f : m.fragments()) {
      fragments.add(Ref.committed(f.id()));
      rows.put(Ref.committed(f.id()), f.physicalRows());
    }
    List<Ref> fields = new ArrayList<>();
    for (Field f : m.schema().fields()) {
      fields.add(Ref.committed(f.id()));
    }
    int fieldToken = 0;
    int fragmentToken = 0;
    int file = 0;
    List<Action> out = new ArrayList<>();
    for (Command c : commands) {
      switch (c.kind()) {
        case 0 -> { // add a column with data in every fragment
          Ref f = Ref.local(fieldToken);
          out.add(AddField.topLevel(fieldToken++, Field.builder(0, "n" + fieldToken, "int32").build()));
          for (Ref frag : fragments) {
            out.add(new AddDataFile(frag, new DataFile("x" + file++ + ".lance", List.of(), List.of(), 2, 1, 1),
                List.of(f), true));
          }
          fields.add(f);
        }
        case 1 -> { // append a fragment backed by one file with every field
          Ref frag = Ref.local(fragmentToken);
          long n = 1 + c.a() % 50;
          out.add(AddFragment.local(fragmentToken++, n));
          if (!fields.isEmpty()) {
            out.add(new AddDataFile(frag, new DataFile("x" + file++ + ".lance", List.of(), List.of(), 2, 1, 1),
                List.copyOf(fields), true));
          }
          fragments.add(frag);
          rows.put(frag, n);
        }
        case 2 -> { // remove a fragment
          if (!fragments.isEmpty()) {
            out.add(new RemoveFragment(fragments.remove(c.a() % fragments.size()), true));
          }
        }
        case 3 -> { // drop a field
          if (!fields.isEmpty()) {
            out.add(new DropField(fields.remove(c.a() % fields.size())));
          }
        }
        case 4 -> { // rename a field
          if (!fields.isEmpty()) {
            out.add(AlterField.rename(fields.get(c.a() % fields.size()), "r" + c.b()));
          }
        }
        case 5 -> out.add(ConfigUpdate.ofConfig(UpdateMap.set("k" + c.a() % 5, "v" + c.b())));
        case 6 -> { // re-encode one field of one fragment
          if (!fields.isEmpty() && !fragments.isEmpty()) {
            Ref f = fields.get(c.a() % fields.size());
            Ref frag = fragments.get(c.b() % fragments.size());
            out.add(new TombstoneFieldData(frag, List.of(f), false));
            out.add(new AddDataFile(frag, new DataFile("x" + file++ + ".lance", List.of(), List.of(), 2, 1, 1),
                List.of(f), false));
          }
        }
        default -> out.add(new ReserveFragmentIds(c.a() % 4));
      }
    }
    return out;
  }

  @Property(tries = 300)
  void validListsKeepTheInvariants(@ForAll("workloads") List<Command> commands,
      @ForAll @IntRange(min = 0, max = 4) int fields, @ForAll @IntRange(min = 0, max = 4) int fragments) {
    Manifest m = base(fields, fragments);
    List<Action> actions = actions(m, commands);
    CompositeApply.Result r = CompositeApply.apply(m, List.of(),
        new CompositeOperation(List.of(new UserStep("random", actions))), m.version());
    Manifest next = r.manifest();

    Set<Long> fragmentIds = new HashSet<>();
    for (Fragment f : next.fragments()) {
      assertThat(fragmentIds.add(f.id())).as("fragment id %d unique", f.id()).isTrue();
      assertThat(next.maxFragmentId().orElseThrow()).isGreaterThanOrEqualTo(f.id());
    }
    Set<Integer> fieldIds = new HashSet<>();
    for (Field f : next.schema().fields()) {
      assertThat(fieldIds.add(f.id())).as("field id %d unique", f.id()).isTrue();
    }
    for (Fragment f : next.fragments()) {
      for (Field field : next.schema().fields()) {
        long backing = f.files().stream().filter(d -> d.fields().contains(field.id())).count();
        assertThat(backing).as("fragment %d backs field %d exactly once", f.id(), field.id()).isEqualTo(1);
      }
      for (DataFile d : f.files()) {
        // A dropped field's id may stay in a surviving file (legacy Project keeps it as the
        // field-id watermark), but every file must back at least one field of the schema.
        assertThat(d.fields().stream().anyMatch(fieldIds::contains))
            .as("file %s backs a field of the schema", d.path()).isTrue();
        for (int id : d.fields()) {
          assertThat(id).as("file %s slot", d.path()).isGreaterThanOrEqualTo(DataFile.TOMBSTONED);
          assertThat(id).isNotEqualTo(DataFile.UNASSIGNED);
        }
      }
    }
    // Ids of dropped fields are never reused: every new field is above the read watermark.
    int readMax = ApplyState.maxFieldId(m);
    for (Field f : next.schema().fields()) {
      if (m.schema().field(f.id()).isEmpty()) {
        assertThat(f.id()).isGreaterThan(readMax);
      }
    }
    assertThat(next.version()).isEqualTo(m.version() + 1);
  }

  @Property(tries = 300)
  void anInvalidActionAnywhereRejectsTheWholeList(@ForAll("workloads") List<Command> commands,
      @ForAll @IntRange(min = 0, max = 1000) int position, @ForAll @IntRange(min = 0, max = 3) int flaw) {
    Manifest m = base(2, 2);
    Manifest copy = m.toBuilder().build();
    List<Action> actions = new ArrayList<>(actions(m, commands));
    Action bad = switch (flaw) {
      case 0 -> new RemoveFragment(Ref.committed(999), true);
      case 1 -> new DropField(Ref.local(77));
      case 2 -> AlterField.rename(Ref.committed(500), "x");
      default -> AddFragment.local(0, 1);
    };
    if (flaw == 3) {
      // A duplicate token is only a flaw once token 0 is already minted.
      actions.add(0, AddFragment.local(0, 1));
      actions.add(1 + position % actions.size(), bad);
    } else {
      actions.add(position % (actions.size() + 1), bad);
    }
    assertThatThrownBy(() -> CompositeApply.apply(m, List.of(),
        new CompositeOperation(List.of(new UserStep("random", actions))), m.version()))
        .isInstanceOf(ApplyException.class)
        .satisfies(e -> assertThat(((ApplyException) e).where()).startsWith("step 1 ('random'), action "));
    assertThat(m).isEqualTo(copy);
  }
}
