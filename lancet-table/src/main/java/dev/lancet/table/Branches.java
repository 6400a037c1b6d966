package dev.lancet.table;

import dev.lancet.core.LancetException;
import dev.lancet.core.Table;
import dev.lancet.core.version.Branch;
import dev.lancet.core.version.Tag;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The table's branches, in Lance's layout (docs/decisions/0027): create one from a version or a
 * tag, list, delete. A branch starts as a version of its parent (the same number, sharing the
 * parent's files through a base path) and then takes commits of its own, through
 * {@link LanceTable#branch(String)}. lance-core 7.0.0 reads the branches made here and Lancet the
 * ones lance-core makes.
 */
public final class Branches {
  private final Table kernel;
  private final LanceTable table;

  Branches(Table kernel, LanceTable table) {
    this.kernel = kernel;
    this.table = table;
  }

  /** Every branch besides main, by name. */
  public List<BranchInfo> list() {
    try {
      return kernel.branches().stream().map(Branches::info).toList();
    } catch (RuntimeException e) {
      throw Commits.translate(e);
    }
  }

  /** The branch {@code name}, if it exists. */
  public Optional<BranchInfo> get(String name) {
    check(name);
    return list().stream().filter(b -> b.name().equals(name)).findFirst();
  }

  /** Creates branch {@code name} at the newest version of this handle's branch. */
  public BranchInfo create(String name) {
    return create(name, table.version());
  }

  /** Creates branch {@code name} at {@code version} of this handle's branch. */
  public BranchInfo create(String name, long version) {
    return create(name, table.branchName(), version);
  }

  /** Creates branch {@code name} at the version tag {@code tag} names, on the tag's branch. */
  public BranchInfo createFromTag(String name, String tag) {
    Tag t;
    try {
      t = kernel.tagInfo(tag);
    } catch (RuntimeException e) {
      throw Commits.translate(e);
    }
    return create(name, t.branch(), t.version());
  }

  private BranchInfo create(String name, Optional<String> from, long version) {
    check(name);
    if (get(name).isPresent()) {
      throw new AlreadyExistsException("branch '" + name + "' already exists; delete it first "
          + "or choose another name");
    }
    try {
      kernel.createBranch(name, from, version);
    } catch (dev.lancet.core.BranchExistsException e) {
      throw new AlreadyExistsException(e.getMessage(), e);
    } catch (RuntimeException e) {
      throw Commits.translate(e);
    }
    return get(name).orElseThrow();
  }

  /**
   * Deletes branch {@code name}: its metadata file and its own files. Refused while another branch
   * starts from it (that branch reads its files) or a tag points into it.
   */
  public void delete(String name) {
    check(name);
    if (get(name).isEmpty()) {
      List<String> names = list().stream().map(BranchInfo::name).toList();
      throw new NotFoundException("branch '" + name + "' does not exist" + (names.isEmpty()
          ? " (the table has no branches besides main)" : "; branches: " + String.join(", ", names)));
    }
    if (table.branchName().equals(Optional.of(name))) {
      throw new InvalidInputException("branch '" + name + "' cannot be deleted through a handle "
          + "on it; delete it through another branch's");
    }
    try {
      kernel.deleteBranch(name);
    } catch (UnsupportedOperationException e) {
      throw new InvalidInputException("branch '" + name + "' cannot be deleted here: "
          + e.getMessage() + "; nothing was removed", e);
    } catch (RuntimeException e) {
      throw Commits.translate(e);
    }
  }

  static void check(String name) {
    String problem = dev.lancet.core.version.Branches.problem(name);
    if (problem != null) {
      throw new InvalidInputException("'" + name + "' is not a valid branch name: " + problem);
    }
  }

  private static BranchInfo info(Branch b) {
    return new BranchInfo(b.name(), b.parentBranch(), b.parentVersion(),
        Instant.ofEpochSecond(b.createAt()), b.metadata());
  }
}
