package dev.lancet.core.conflict;

import static dev.lancet.core.conflict.Sets.*;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import dev.lancet.core.action.AddOverlays;
import dev.lancet.core.action.ReserveFragmentIds;
import dev.lancet.core.action.ReserveRowIds;
import dev.lancet.core.apply.ApplyState;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** What each action records (v2-semantics §3 FP-C bullets) and how the builder folds it. */
class FootprintTest {

  @Test
  void localRefsRecordNoCoordinate() {
    Footprint f = fp(newFragment(0), addDataFile(l(0), List.of(l(1))), new AddOverlays(l(0),
        overlay(0, 0).overlays(), true), new dev.lancet.core.action.RemoveFragment(l(0), true),
        new dev.lancet.core.action.DropField(l(1)),
        fieldMetadata(l(1), "comment", "x"));

    assertThat(f.claims()).isEmpty();
    assertThat(f.regions()).isEmpty();
    assertThat(f.requiredFragments()).isEmpty();
    assertThat(f.insertsRows()).isTrue();
  }

  @Test
  void reservationsRecordNothing() {
    Footprint f = fp(new ReserveFragmentIds(3), new ReserveRowIds(10));

    assertThat(f).isEqualTo(Footprint.builder().build());
  }

  @Test
  void theStrongestModeIsKeptWhicheverComesFirst() {
    Footprint partialFirst = fp(overlay(0, 0), tombstone(0, 0));
    Footprint fullFirst = fp(tombstone(0, 0), overlay(0, 0));

    assertThat(partialFirst.claims()).containsEntry(new Coordinate.FieldData(0, 0), Mode.WRITES);
    assertThat(fullFirst.claims()).containsEntry(new Coordinate.FieldData(0, 0), Mode.WRITES);
    // The overlay's requirement on the definition stays a requirement.
    assertThat(partialFirst.claims()).containsEntry(new Coordinate.FieldDefinition(0), Mode.REQUIRES);
  }

  @Test
  void aRequirementDoesNotWeakenAWrite() {
    Footprint f = fp(cast(1), addChild(0, "c", 1));

    assertThat(f.claims()).containsEntry(new Coordinate.FieldDefinition(1), Mode.WRITES);
  }

  @Test
  void anOverlayIsAPartialWriteOfEachOverlaidField() {
    Footprint f = fp(overlay(3, 0, 2));

    assertThat(f.claims()).containsOnly(
        entry(new Coordinate.FieldData(3, 0), Mode.PARTIAL_WRITE),
        entry(new Coordinate.FieldData(3, 2), Mode.PARTIAL_WRITE),
        entry(new Coordinate.FieldDefinition(0), Mode.REQUIRES),
        entry(new Coordinate.FieldDefinition(2), Mode.REQUIRES));
    // Removal of the fragment is caught through its region, not a required fragment.
    assertThat(f.requiredFragments()).isEmpty();
    assertThat(f.regions()).isEmpty();
  }

  @Test
  void writingFieldDataIntoACommittedFragmentRequiresIt() {
    Footprint f = fp(addDataFile(c(7), List.of(c(1), l(0))));

    assertThat(f.requiredFragments()).containsExactly(7L);
    assertThat(f.claims()).containsOnly(
        entry(new Coordinate.FieldDefinition(1), Mode.REQUIRES),
        entry(new Coordinate.FieldData(7, 1), Mode.WRITES));
  }

  @Test
  void aRemovalWritesExistenceAndTheWholeFragment() {
    Footprint f = fp(remove(4));

    assertThat(f.claims()).containsOnly(entry(new Coordinate.FragmentExistence(4), Mode.WRITES));
    assertThat(f.regions()).containsOnly(entry(new Region.Fragment(4), Mode.WRITES));
  }

  @Test
  void onlyDataChangeFragmentsInsertRows() {
    assertThat(fp(newFragment(0)).insertsRows()).isTrue();
    assertThat(fp(compactedFragment(0)).insertsRows()).isFalse();
    assertThat(fp(remove(0), deletion(1), tombstone(2, 0)).insertsRows()).isFalse();
  }

  @Test
  void aResetIsExclusive() {
    assertThat(fp(reset()).exclusive()).isTrue();
    assertThat(fp((Object) append(0)).exclusive()).isFalse();
  }

  @Test
  void aFieldIdBeyondAnI32IsIgnored() {
    Footprint f = fp(new dev.lancet.core.action.AlterField(c(1L << 40), Optional.empty(),
        Optional.empty(), Optional.of(true)));

    assertThat(f.claims()).isEmpty();
  }

  @Test
  void configUpdatesRecordKeysRegionsAndTheUnenforcedKey() {
    Footprint f = fp(replaceConfig("a"), setTableMetadata("t"),
        fieldMetadata(c(2), ApplyState.PK_POSITION, "0"));

    assertThat(f.regions()).containsOnly(entry(new Region.Map(ConfigMap.CONFIG), Mode.WRITES));
    assertThat(f.claims()).containsOnly(
        entry(new Coordinate.ConfigEntry(ConfigMap.TABLE_METADATA, "t"), Mode.WRITES),
        entry(new Coordinate.ConfigEntry(ConfigMap.field(2), ApplyState.PK_POSITION), Mode.WRITES),
        entry(new Coordinate.FieldDefinition(2), Mode.REQUIRES),
        entry(new Coordinate.UnenforcedKey(Coordinate.KeyKind.PRIMARY), Mode.WRITES));
  }

  @Test
  void indexActionsRecordClaimsAndRequirements() {
    Footprint f = fp(build(1, BY_A, committed(0), 7), adjust(2, BY_B, List.of(c(3), l(0)), List.of(9L)),
        removeSegment(3, BY_A), compactedSsTables(1, 4));

    assertThat(f.indexClaims()).containsExactly(
        new IndexClaim(BY_A, Optional.of(new IndexClaim.Identity(committed(0), Optional.of(BTREE), 0)),
            Optional.of(java.util.Set.of(7L))),
        new IndexClaim(BY_B, Optional.empty(), Optional.of(java.util.Set.of(3L))),
        new IndexClaim(MEM_WAL, Optional.empty(), Optional.empty()));
    assertThat(f.claims()).containsOnly(
        entry(new Coordinate.FieldDefinition(0), Mode.REQUIRES),
        entry(new Coordinate.FieldData(7, 0), Mode.REQUIRES),
        entry(new Coordinate.IndexSegment(uuid(2)), Mode.WRITES),
        entry(new Coordinate.IndexSegment(uuid(3)), Mode.WRITES));
  }

  @Test
  void keyAssertionsKeepTheirRefs() {
    Footprint f = fp(assertKeys(List.of(l(0), c(1)), exact(5L)));

    assertThat(f.keyAssertions()).containsExactly(new KeyAssertion(List.of(l(0), c(1)), exact(5L)));
  }

  @Test
  void collisionsSayWhatCollided() {
    ConflictResult r = Conflicts.check(fp(tombstone(0, 1)), fp(remove(0)));

    // The field data inside the removed fragment, and the fragment the rewrite needs.
    assertThat(r.collisions()).extracting(Collision::kind)
        .containsExactly(Collision.Kind.FRAGMENT, Collision.Kind.FRAGMENT);
    assertThat(r.collisions()).allSatisfy(c -> assertThat(((Collision.Fragment) c).fragment()).isZero());
    assertThat(r.describe()).contains("data of field 1 in fragment 0").contains("fragment 0");

    ConflictResult reset = Conflicts.check(fp(newFragment(0)), fp(reset()));
    assertThat(reset.collisions()).extracting(Collision::kind).containsExactly(Collision.Kind.WHOLE_TABLE);

    ConflictResult keys = Conflicts.check(fp((Object) keyedInsert(exact(2L, 3L))), fp((Object) keyedInsert(exact(4L, 2L))));
    assertThat(keys.collisions()).hasSize(2).allSatisfy(c -> {
      Collision.KeyAssertion k = (Collision.KeyAssertion) c;
      assertThat(k.keyFields()).containsExactly(c(0));
      assertThat(k.sharedKeyHashes()).containsExactly(2L);
    });
    assertThat(keys.describe()).contains("hash 2");

    ConflictResult index = Conflicts.check(fp(build(1, BY_A, committed(0), 7)), fp(build(2, BY_A, committed(0), 7)));
    assertThat(index.collisions()).singleElement().isInstanceOfSatisfying(Collision.Index.class,
        i -> assertThat(i.name()).contains(BY_A));
    assertThat(index.describe()).contains("by_a").contains("[7]");

    ConflictResult field = Conflicts.check(fp(tombstone(0, 1)), fp(rewrite(0, 1)));
    assertThat(field.collisions()).singleElement().isInstanceOfSatisfying(Collision.FieldData.class, d -> {
      assertThat(d.fragment()).isZero();
      assertThat(d.field()).isEqualTo(1);
    });
    ConflictResult schema = Conflicts.check(fp(rename(1, "x")), fp(nullable(1)));
    assertThat(schema.collisions()).singleElement().isInstanceOfSatisfying(Collision.Schema.class,
        s -> assertThat(s.field()).hasValue(1));
    ConflictResult config = Conflicts.check(fp(setConfig("k")), fp(setConfig("k")));
    assertThat(config.collisions()).singleElement().isInstanceOfSatisfying(Collision.Config.class, c -> {
      assertThat(c.map()).isEqualTo(ConfigMap.CONFIG);
      assertThat(c.key()).contains("k");
    });

    assertThat(Conflicts.check(fp(deletion(0)), fp(deletion(1))).describe()).isEqualTo("no conflict");
  }
}
