package dev.lancet.core.commit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancet.core.conflict.Collision;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A conflict's message stays short however many coordinates collided; the values keep all. */
class ConflictMessageTest {
  @Test
  void theMessageNamesAFewCollisionsAndCountsTheRest() {
    List<Collision> many = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      many.add(new Collision.FailClosed("reason " + i + " " + "x".repeat(i == 1 ? 1000 : 0)));
    }
    ConflictingCommitException e = new ConflictingCommitException(7, "Append", many);
    assertThat(e.getMessage()).contains("reason 0").contains("reason 2")
        .doesNotContain("reason 3").contains("and 37 more collision(s)");
    assertThat(e.getMessage().length()).isLessThan(1200);
    assertThat(e.conflicts()).hasSize(40);
    assertThat(new ConflictingCommitException(7, "Append", many.subList(0, 2)).getMessage())
        .doesNotContain("more collision");
  }
}
