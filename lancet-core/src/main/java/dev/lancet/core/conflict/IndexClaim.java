package dev.lancet.core.conflict;

import com.google.protobuf.Any;
import com.google.protobuf.ByteString;
import dev.lancet.core.action.Ref;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * A claim on a logical index (v2-semantics §4.5): its name, what the index is (when the
 * claimant builds a segment) and which committed fragments it reaches (empty = unstated, which
 * could be anything; minted fragments are never listed).
 */
public record IndexClaim(String name, Optional<Identity> identity, Optional<Set<Long>> coverage) {

  /**
   * What an index is over: its keys and, separately, the columns it carries (a legacy
   * IndexMetadata is split into the two, so both forms compare alike). Two writers that
   * disagree about which columns are carried disagree about what the index answers for. Fields
   * are kept as refs; comparison across transactions is conservative (any {@link Ref.Local}
   * field makes two identities differ, see {@link CrossTransactionRefs}). Details are compared
   * as opaque bytes; an unset index version means 0, as apply stores it.
   */
  public record Identity(List<Ref> fields, List<Ref> coveringFields, Optional<Any> details, int indexVersion) {
    public Identity {
      fields = List.copyOf(fields);
      coveringFields = List.copyOf(coveringFields);
      Objects.requireNonNull(details, "details");
    }

    /** An identity that carries no columns beyond its keys. */
    public Identity(List<Ref> fields, Optional<Any> details, int indexVersion) {
      this(fields, List.of(), details, indexVersion);
    }

    /** Keys and carried columns: everything the segment depends on. */
    public List<Ref> dependencies() {
      List<Ref> all = new java.util.ArrayList<>(fields);
      all.addAll(coveringFields);
      return all;
    }

    boolean sameAs(Identity other) {
      ByteString mine = details.map(Any::toByteString).orElse(ByteString.EMPTY);
      ByteString theirs = other.details.map(Any::toByteString).orElse(ByteString.EMPTY);
      return CrossTransactionRefs.same(fields, other.fields)
          && CrossTransactionRefs.same(coveringFields, other.coveringFields)
          && mine.equals(theirs) && indexVersion == other.indexVersion;
    }
  }

  public IndexClaim {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(identity, "identity");
    coverage = coverage.map(c -> java.util.Collections.unmodifiableSet(new TreeSet<>(c)));
  }

  /** Why this claim collides with {@code other}, or empty when it does not. */
  public Optional<String> collision(IndexClaim other) {
    if (!name.equals(other.name)) {
      return Optional.empty();
    }
    String subject = "index '" + name + "': ";
    if (identity.isPresent() && other.identity.isPresent()
        && !identity.get().sameAs(other.identity.get())) {
      return Optional.of(subject + "the two segments disagree about what the index is ("
          + identity.get() + " vs " + other.identity.get() + ")");
    }
    if (coverage.isEmpty() || other.coverage.isEmpty()) {
      return Optional.of(subject + "a claim of unstated coverage may reach any fragment");
    }
    Set<Long> shared = new TreeSet<>(coverage.get());
    shared.retainAll(other.coverage.get());
    if (!shared.isEmpty()) {
      return Optional.of(subject + "both claim fragments " + shared);
    }
    return Optional.empty();
  }
}
