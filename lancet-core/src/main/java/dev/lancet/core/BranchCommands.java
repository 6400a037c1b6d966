package dev.lancet.core;

import dev.lancet.core.commit.CommitConflictException;
import dev.lancet.core.commit.VersionPublisher;
import dev.lancet.core.operation.Clone;
import dev.lancet.core.operation.LegacyApply;
import dev.lancet.core.operation.LegacyOperationCodec;
import dev.lancet.core.operation.ManifestHistory;
import dev.lancet.core.store.AlreadyExistsException;
import dev.lancet.core.store.Locations;
import dev.lancet.core.store.ObjectStore;
import dev.lancet.core.store.StoredObject;
import dev.lancet.core.store.SubtreeStore;
import dev.lancet.core.version.Branch;
import dev.lancet.core.version.Branches;
import dev.lancet.core.version.Snapshot;
import dev.lancet.core.version.Tag;
import dev.lancet.core.version.Tags;
import dev.lancet.format.layout.ManifestNaming;
import dev.lancet.format.model.IndexSegment;
import dev.lancet.format.model.Manifest;
import dev.lancet.format.pb.TransactionProtos;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * Creating and deleting branches in Lance's layout (docs/decisions/0027), as lance-core 7.0.0
 * does on disk. Creating is two steps: the branch's metadata file
 * ({@code _refs/branches/{name}.json}, put-if-absent), which claims the name, then its first
 * version (a shallow {@code Clone} of the source version under {@code tree/{name}/},
 * put-if-absent). Of two creators of one name exactly one wins, whatever versions they start
 * from.
 */
final class BranchCommands {
  private BranchCommands() {}

  static Table create(Table root, String name, Optional<String> fromBranch, long version,
      Clock clock) {
    try {
      Branches.check(name);
    } catch (IllegalArgumentException e) {
      throw new LancetException(e.getMessage());
    }
    ObjectStore rootStore = root.rootStore();
    try {
      if (Branches.find(rootStore, name).isPresent()) {
        throw new BranchExistsException("branch '" + name + "' already exists; delete it first or "
            + "choose another name");
      }
      Table source = root.checkoutBranch(fromBranch);
      Snapshot from = source.version(version);
      from.requireWritable();
      SubtreeStore target = new SubtreeStore(rootStore, Branches.directory(name));
      if (!target.list(ManifestNaming.VERSIONS_DIR).isEmpty()) {
        throw new BranchExistsException("tree/" + name + "/ already holds versions (a branch being "
            + "created, or the leftovers of one whose metadata file is gone); remove tree/" + name
            + "/ first");
      }
      Clone clone = new Clone(true, fromBranch, version, Locations.canonical(source.location()),
          Optional.of(name));
      ManifestHistory history = new ManifestHistory() {
        @Override
        public Manifest manifestAt(long v) {
          return source.version(v).manifest();
        }

        @Override
        public List<IndexSegment> indicesAt(long v) {
          return source.version(v).indices();
        }
      };
      LegacyApply.Result first = LegacyApply.apply(Manifest.builder().version(0).build(),
          List.of(), clone, version, history);
      TransactionProtos.Transaction txn = LegacyOperationCodec.encode(clone)
          .setReadVersion(version).setUuid(UUID.randomUUID().toString()).build();
      List<Branch.Fork> lineage = new ArrayList<>();
      if (fromBranch.isPresent()) {
        lineage.addAll(Branches.get(rootStore, fromBranch.get()).lineage());
      }
      lineage.add(new Branch.Fork(version, UUID.randomUUID().toString().replace("-", "")));
      Branch meta = new Branch(name, fromBranch, version, clock.instant().getEpochSecond(),
          from.entry().sizeBytes(), lineage, Map.of());
      // The metadata file first, put-if-absent: it claims the name, so of two creators exactly one
      // goes on to publish the first version (lance-core writes it second; a creator that wins the
      // first version but loses the name would leave its version in the other's branch).
      rootStore.putIfAbsent(Branches.metadataPath(name), Branches.encode(meta));
      try {
        new VersionPublisher(target, clock).publish(first.manifest(), first.indices(), txn,
            ManifestNaming.V2);
      } catch (dev.lancet.core.commit.CommitStateUnknownException e) {
        throw e; // the first version may have landed: the branch stays, to be read or deleted
      } catch (IOException | RuntimeException e) {
        // Nothing of this branch is published: give the name back.
        rootStore.delete(Branches.metadataPath(name));
        throw e;
      }
      return root.checkoutBranch(Optional.of(name));
    } catch (CommitConflictException | AlreadyExistsException e) {
      throw new BranchExistsException("another writer created branch '" + name + "' first", e);
    } catch (IOException e) {
      throw new UncheckedIOException("creating branch " + name + " of " + root.rootLocation(), e);
    }
  }

  /**
   * Deletes the metadata file, then every file under {@code tree/{name}/} that belongs to no
   * other branch. Refuses while another branch starts from this one (its versions read this
   * branch's files through a base path) or a tag points into it.
   */
  static void delete(Table root, String name) {
    ObjectStore rootStore = root.rootStore();
    try {
      Branches.check(name);
    } catch (IllegalArgumentException e) {
      throw new LancetException(e.getMessage());
    }
    try {
      Branches.get(rootStore, name);
      List<String> children = new ArrayList<>();
      List<String> others = new ArrayList<>();
      for (Branch b : Branches.list(rootStore)) {
        if (b.parentBranch().equals(Optional.of(name))) {
          children.add(b.name());
        }
        if (!b.name().equals(name)) {
          others.add(b.directory());
        }
      }
      if (!children.isEmpty()) {
        throw new LancetException("branch '" + name + "' cannot be deleted: branch(es) "
            + String.join(", ", children) + " start from it and read its files; delete them first");
      }
      List<String> tags = new ArrayList<>();
      for (Tag t : Tags.list(rootStore)) {
        if (t.branch().equals(Optional.of(name))) {
          tags.add(t.name());
        }
      }
      if (!tags.isEmpty()) {
        throw new LancetException("branch '" + name + "' cannot be deleted: tag(s) "
            + String.join(", ", tags) + " point into it; delete or move them first");
      }
      // Listed before anything goes: a store that cannot list files refuses with nothing removed.
      List<StoredObject> files = rootStore.walk(Branches.directory(name));
      rootStore.delete(Branches.metadataPath(name));
      for (StoredObject f : files) {
        if (others.stream().anyMatch(d -> f.path().startsWith(d))) {
          continue;
        }
        if (f.temporary()) {
          rootStore.deleteTemporary(f.path());
        } else {
          rootStore.delete(f.path());
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("deleting branch " + name + " of " + root.rootLocation(), e);
    }
  }
}
