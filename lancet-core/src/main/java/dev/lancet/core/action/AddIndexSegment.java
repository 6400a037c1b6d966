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
    OptionalLong datasetVersion) implements Action {

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
    state.addIndex(new IndexSegment(uuid, fieldIds, name, version, bitmap, indexDetails,
        indexVersion.isPresent() ? indexVersion : OptionalInt.of(0), createdAt, baseId, files,
        UnknownFieldSet.getDefaultInstance()));
  }

  /** An index claim, plus requirements on the indexed fields and the covered data. */
  @Override
  public void footprint(FootprintBuilder fp) {
    fp.buildIndex(name, new IndexClaim.Identity(fields, indexDetails, indexVersion.orElse(0)),
        coveredFragments);
  }
}
