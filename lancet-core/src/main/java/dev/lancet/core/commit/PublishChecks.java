package dev.lancet.core.commit;

import dev.lancet.format.layout.BasePathPolicy;
import java.util.Objects;

/**
 * What a commit checks before it writes anything, beyond the manifest rules every commit runs
 * (docs/decisions/0015-validate-before-publishing.md):
 *
 * <ul>
 *   <li>{@code basePaths}: which locations it may register as base paths (default: none; a base
 *       path makes readers read files outside the table).
 *   <li>{@code verifyNewFiles}: whether the files the commit adds are looked up in the store
 *       before publishing (default: yes). Each new data, overlay and index file must exist with
 *       the size it is recorded with, and each new deletion file must decode with no offset
 *       beyond its fragment's rows: one request per new file, none for files already in the
 *       table. A bulk writer that has just written and verified its files itself may switch this
 *       off ({@link #trustingNewFiles()}); BENCHMARKS.md gives what it costs.
 * </ul>
 */
public record PublishChecks(BasePathPolicy basePaths, boolean verifyNewFiles) {
  public static final PublishChecks DEFAULT = new PublishChecks(BasePathPolicy.denyAll(), true);

  public PublishChecks {
    Objects.requireNonNull(basePaths, "basePaths");
  }

  public PublishChecks withBasePaths(BasePathPolicy policy) {
    return new PublishChecks(policy, verifyNewFiles);
  }

  /** The same checks, without looking up new files in the store (the caller vouches for them). */
  public PublishChecks trustingNewFiles() {
    return new PublishChecks(basePaths, false);
  }

  public PublishChecks withVerifyNewFiles(boolean verify) {
    return new PublishChecks(basePaths, verify);
  }
}
