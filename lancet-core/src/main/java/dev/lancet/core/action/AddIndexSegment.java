package dev.lancet.core.action;

import com.google.protobuf.Any;
import com.google.protobuf.UnknownFieldSet;
import dev.lancet.core.apply.ApplyState;
import dev.lancet.core.conflict.FootprintBuilder;
import dev.lancet.core.conflict.IndexClaim;
import dev.lancet.format.model.IndexSegment;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.UUID;
import org.roaringbitmap.RoaringBitmap;

/**
 * Adds one index segment. {@code coveredFragments} empty means "coverage unknown" (system
 * indices), present-and-empty means "covers nothing". {@code datasetVersion} defaults to the
 * transaction's read version and may not exceed it.
 *
 * <p>{@code fields} are the keys only; {@code coveringFields} the columns the segment carries
 * values for, independent of the keys (lance-format/lance {@code protos/transaction/actions.proto}
 * @83c943b5, field 12). The segment depends on both. The manifest can carry only the legacy form
 * today, so apply lowers a disjoint declaration to {@code IndexMetadata{fields = keys ++ covering,
 * covering_fields = covering}}; a field in both lists needs FLAG_INDEPENDENT_COVERING_FIELDS,
 * which no release implements, and is rejected (as upstream's {@code add_index_segment.rs}).
 */
public record AddIndexSegment(
    UUID uuid,
    String name,
    List<Ref> fields,
    Optional<Any> indexDetails,
    OptionalInt indexVersion,
    Optional<List<Ref>> coveredFragments,
    List<IndexSegment.IndexFile> files,
    boolean dataChange,
    Optional<Ref> base,
    OptionalLong createdAt,
    OptionalLong datasetVersion,
    List<Ref> coveringFields) implements Action {

  public AddIndexSegment {
    Objects.requireNonNull(uuid, "uuid");
    Objects.requireNonNull(name, "name");
    fields = List.copyOf(fields);
    Objects.requireNonNull(indexDetails, "indexDetails");
    Objects.requireNonNull(indexVersion, "indexVersion");
    coveredFragments = coveredFragments.map(List::copyOf);
    files = List.copyOf(files);
    Objects.requireNonNull(base, "base");
    Objects.requireNonNull(createdAt, "createdAt");
    Objects.requireNonNull(datasetVersion, "datasetVersion");
    coveringFields = List.copyOf(coveringFields);
  }

  @Override
  public boolean isDataChange() {
    return dataChange;
  }

  @Override
  public void apply(ApplyState state) {
    List<Integer> fieldIds = new ArrayList<>(fields.size());
    for (Ref f : fields) {
      int id = state.resolveField(f);
      if (state.field(id).isEmpty()) {
        throw state.invalid("AddIndexSegment '" + name + "' indexes field " + id
            + ", which does not exist; an index is over fields of the schema");
      }
      fieldIds.add(id);
    }
    List<Integer> covering = new ArrayList<>(coveringFields.size());
    for (Ref f : coveringFields) {
      covering.add(state.resolveField(f));
    }
    List<Integer> both = covering.stream().filter(fieldIds::contains).distinct().toList();
    if (!both.isEmpty()) {
      throw state.invalid("index '" + name + "' declares field(s) " + both + " as both keys and covering "
          + "fields (keys " + fieldIds + ", covering " + covering + "); that needs the manifest feature "
          + "FLAG_INDEPENDENT_COVERING_FIELDS, which no Lance release implements yet, so the legacy form "
          + "cannot say it. List each field once: as a key, or as a covering field");
    }
    List<Integer> stored = new ArrayList<>(fieldIds);
    stored.addAll(covering);
    com.google.protobuf.ByteString bitmap = com.google.protobuf.ByteString.EMPTY;
    if (coveredFragments.isPresent()) {
      RoaringBitmap covered = new RoaringBitmap();
      for (Ref f : coveredFragments.get()) {
        covered.add(state.indexableFragmentId(state.resolveFragment(f), actionName()));
      }
      bitmap = IndexSegment.fragmentBitmapOf(covered);
    }
    OptionalInt baseId = base.isPresent() ? OptionalInt.of(state.resolveBase(base.get())) : OptionalInt.empty();
    long version = datasetVersion.orElse(state.readVersion());
    if (version > state.readVersion()) {
      throw state.invalid("AddIndexSegment '" + name + "' says it reflects version " + version
          + ", which a transaction that read version " + state.readVersion() + " could not have seen");
    }
    IndexSegment segment = new IndexSegment(uuid, stored, name, version, bitmap, indexDetails,
        indexVersion.isPresent() ? indexVersion : OptionalInt.of(0), createdAt, baseId, files, covering,
        UnknownFieldSet.getDefaultInstance());
    // The lowering builds the legacy form by construction; a problem here is a duplicate
    // covering field, or no key left.
    segment.coveringProblem().ifPresent(p -> {
      throw state.invalid(p);
    });
    state.addIndex(segment);
  }

  /**
   * An index claim (its identity includes the covering fields), plus requirements on the keyed
   * and the carried fields and on their data in the covered fragments: a carried column
   * rewritten underneath the segment makes it answer from an obsolete value.
   */
  @Override
  public void footprint(FootprintBuilder fp) {
    fp.buildIndex(name, new IndexClaim.Identity(fields, coveringFields, indexDetails, indexVersion.orElse(0)),
        coveredFragments);
  }
}
