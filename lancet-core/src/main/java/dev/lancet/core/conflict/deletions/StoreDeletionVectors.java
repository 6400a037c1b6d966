package dev.lancet.core.conflict.deletions;

import dev.lancet.core.deletion.DeletionFiles;
import dev.lancet.core.store.ObjectStore;
import dev.lancet.core.version.ReadLimits;
import dev.lancet.format.codec.FragmentCodec;
import dev.lancet.format.deletion.DeletionVector;
import dev.lancet.format.model.DeletionFile;
import dev.lancet.format.pb.TableProtos;
import java.io.IOException;
import java.util.Objects;

/**
 * {@link DeletionVectors} over an {@link ObjectStore} rooted at a table: files live under
 * {@code _deletions/}. New files are written as Roaring bitmaps ({@code .bin}), the form Lance
 * gives a vector it builds from a bitmap union, with put-if-absent so an existing file is never
 * overwritten. Deletion files in another base path (a set {@code base_id}) are not resolved here.
 */
public final class StoreDeletionVectors implements DeletionVectors {
  private final ObjectStore store;

  public StoreDeletionVectors(ObjectStore store) {
    this.store = Objects.requireNonNull(store, "store");
  }

  @Override
  public DeletionVector read(long fragmentId, TableProtos.DeletionFile file) throws IOException {
    if (file.hasBaseId()) {
      throw new IOException("the deletion file of fragment " + Long.toUnsignedString(fragmentId)
          + " lives in base path " + Integer.toUnsignedString(file.getBaseId())
          + ", which the conflict check cannot resolve; retry once the table's bases are resolvable");
    }
    return DeletionFiles.read(store, fragmentId, FragmentCodec.fromProto(file));
  }

  @Override
  public TableProtos.DeletionFile write(long fragmentId, long readVersion, DeletionVector vector)
      throws IOException {
    return FragmentCodec.toProto(DeletionFiles.write(store, fragmentId, readVersion, vector,
        DeletionFile.Kind.BITMAP));
  }
}
