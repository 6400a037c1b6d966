package dev.lancet.core.action;

import static dev.lancet.core.apply.ApplyFixtures.addDataFile;
import static dev.lancet.core.apply.ApplyFixtures.addFragment;
import static dev.lancet.core.apply.ApplyFixtures.apply;
import static dev.lancet.core.apply.ApplyFixtures.backedManifest;
import static dev.lancet.core.apply.ApplyFixtures.committed;
import static dev.lancet.core.apply.ApplyFixtures.failure;
import static dev.lancet.core.apply.ApplyFixtures.file;
import static dev.lancet.core.apply.ApplyFixtures.field;
import static dev.lancet.core.apply.ApplyFixtures.fragmentIds;
import static dev.lancet.core.apply.ApplyFixtures.local;
import static dev.lancet.core.apply.ApplyFixtures.manifest;
import static dev.lancet.core.apply.ApplyFixtures.sampleManifest;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lancet.core.apply.ApplyException;
import dev.lancet.format.model.Fragment;
import dev.lancet.format.model.Manifest;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class RemoveFragmentTest {

  private static RemoveFragment remove(Ref fragment) {
    return new RemoveFragment(fragment, true);
  }

  @Test
  void test_remove_fragment() {
    Manifest next = apply(backedManifest(), remove(committed(0)));

    assertThat(next.fragments()).isEmpty();
    // The id stays spent: the high-water mark remembers it.
    assertThat(next.maxFragmentId()).isEqualTo(OptionalLong.of(0));
    assertThat(fragmentIds(apply(next, addFragment(0, 1)))).containsExactly(1L);
  }

  @Test
  void only_the_named_fragment_goes() {
    Manifest m = manifest(List.of(field(0, "id")), List.of(
        Fragment.of(0, 10, List.of(file("data/0.lance", 0))),
        Fragment.of(1, 10, List.of(file("data/1.lance", 0))),
        Fragment.of(2, 10, List.of(file("data/2.lance", 0)))));

    Manifest next = apply(m, remove(committed(1)));

    assertThat(fragmentIds(next)).containsExactly(0L, 2L);
    assertThat(next.fragments().get(1)).isEqualTo(m.fragments().get(2));
  }

  @Test
  void test_remove_fragment_can_drop_one_minted_in_the_same_operation() {
    Manifest next = apply(sampleManifest(),
        addFragment(0, 10),
        addDataFile(local(0), "data/1.lance", committed(0)),
        remove(local(0)));

    assertThat(fragmentIds(next)).containsExactly(0L);
    // The minted id was spent even though the fragment never landed.
    assertThat(next.maxFragmentId()).isEqualTo(OptionalLong.of(1));
  }

  @Test
  void test_remove_fragment_rejects_a_missing_fragment() {
    ApplyException e = failure(sampleManifest(), remove(committed(7)));

    assertThat(e.problem()).isEqualTo("RemoveFragment targets fragment 7, which does not exist");
    assertThat(e.where()).contains("action 1 (RemoveFragment)");
  }

  @Test
  void a_fragment_cannot_be_removed_twice() {
    ApplyException e = failure(sampleManifest(), remove(committed(0)), remove(committed(0)));

    assertThat(e.problem()).contains("fragment 0").contains("does not exist");
    assertThat(e.where()).contains("action 2 (RemoveFragment)");
  }

  @Test
  void a_removed_fragments_token_no_longer_targets_anything() {
    ApplyException e = failure(sampleManifest(),
        addFragment(0, 10), remove(local(0)), addDataFile(local(0), "late.lance", committed(0)));

    assertThat(e.problem()).isEqualTo("AddDataFile targets fragment 1, which does not exist");
    assertThat(e.where()).contains("action 3 (AddDataFile)");
  }

  @Test
  void data_change_is_the_actions_own_flag() {
    assertThat(remove(committed(0)).isDataChange()).isTrue();
    assertThat(new RemoveFragment(committed(0), false).isDataChange()).isFalse();
  }
}
