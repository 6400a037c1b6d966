package dev.lancet.format.codec;

import dev.lancet.format.model.DataFile;
import dev.lancet.format.model.DataOverlayFile;
import dev.lancet.format.model.DeletionFile;
import dev.lancet.format.model.ExternalFile;
import dev.lancet.format.model.Fragment;
import dev.lancet.format.model.StoredSequence;
import dev.lancet.format.FormatException;
import dev.lancet.format.pb.TableProtos;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/** Converts fragments and everything in them between protobuf and the model, losslessly. */
public final class FragmentCodec {
  private FragmentCodec() {}

  public static Fragment fromProto(TableProtos.DataFragment p) {
    List<DataFile> files = new ArrayList<>(p.getFilesCount());
    for (TableProtos.DataFile f : p.getFilesList()) {
      files.add(fromProto(f));
    }
    List<DataOverlayFile> overlays = new ArrayList<>(p.getOverlaysCount());
    for (TableProtos.DataOverlayFile o : p.getOverlaysList()) {
      overlays.add(fromProto(o, p.getId()));
    }
    Optional<StoredSequence> rowIds = switch (p.getRowIdSequenceCase()) {
      case INLINE_ROW_IDS -> Optional.of(new StoredSequence.Inline(p.getInlineRowIds()));
      case EXTERNAL_ROW_IDS -> Optional.of(new StoredSequence.External(fromProto(p.getExternalRowIds())));
      case ROWIDSEQUENCE_NOT_SET -> Optional.empty();
    };
    Optional<StoredSequence> lastUpdated = switch (p.getLastUpdatedAtVersionSequenceCase()) {
      case INLINE_LAST_UPDATED_AT_VERSIONS ->
          Optional.of(new StoredSequence.Inline(p.getInlineLastUpdatedAtVersions()));
      case EXTERNAL_LAST_UPDATED_AT_VERSIONS ->
          Optional.of(new StoredSequence.External(fromProto(p.getExternalLastUpdatedAtVersions())));
      case LASTUPDATEDATVERSIONSEQUENCE_NOT_SET -> Optional.empty();
    };
    Optional<StoredSequence> created = switch (p.getCreatedAtVersionSequenceCase()) {
      case INLINE_CREATED_AT_VERSIONS ->
          Optional.of(new StoredSequence.Inline(p.getInlineCreatedAtVersions()));
      case EXTERNAL_CREATED_AT_VERSIONS ->
          Optional.of(new StoredSequence.External(fromProto(p.getExternalCreatedAtVersions())));
      case CREATEDATVERSIONSEQUENCE_NOT_SET -> Optional.empty();
    };
    return new Fragment(
        p.getId(),
        files,
        p.hasDeletionFile() ? Optional.of(fromProto(p.getDeletionFile())) : Optional.empty(),
        rowIds,
        lastUpdated,
        created,
        p.getPhysicalRows(),
        overlays,
        p.getUnknownFields());
  }

  public static TableProtos.DataFragment toProto(Fragment f) {
    TableProtos.DataFragment.Builder b = TableProtos.DataFragment.newBuilder()
        .setId(f.id())
        .setPhysicalRows(f.physicalRows())
        .setUnknownFields(f.unknownFields());
    for (DataFile file : f.files()) {
      b.addFiles(toProto(file));
    }
    f.deletionFile().ifPresent(d -> b.setDeletionFile(toProto(d)));
    f.rowIds().ifPresent(s -> {
      if (s instanceof StoredSequence.Inline in) {
        b.setInlineRowIds(in.bytes());
      } else if (s instanceof StoredSequence.External ex) {
        b.setExternalRowIds(toProto(ex.file()));
      }
    });
    f.lastUpdatedAtVersions().ifPresent(s -> {
      if (s instanceof StoredSequence.Inline in) {
        b.setInlineLastUpdatedAtVersions(in.bytes());
      } else if (s instanceof StoredSequence.External ex) {
        b.setExternalLastUpdatedAtVersions(toProto(ex.file()));
      }
    });
    f.createdAtVersions().ifPresent(s -> {
      if (s instanceof StoredSequence.Inline in) {
        b.setInlineCreatedAtVersions(in.bytes());
      } else if (s instanceof StoredSequence.External ex) {
        b.setExternalCreatedAtVersions(toProto(ex.file()));
      }
    });
    for (DataOverlayFile o : f.overlays()) {
      b.addOverlays(toProto(o));
    }
    return b.build();
  }

  public static DataFile fromProto(TableProtos.DataFile p) {
    return new DataFile(
        p.getPath(),
        p.getFieldsList(),
        p.getColumnIndicesList(),
        p.getFileMajorVersion(),
        p.getFileMinorVersion(),
        p.getFileSizeBytes(),
        p.hasBaseId() ? OptionalInt.of(p.getBaseId()) : OptionalInt.empty(),
        p.getUnknownFields());
  }

  public static TableProtos.DataFile toProto(DataFile f) {
    TableProtos.DataFile.Builder b = TableProtos.DataFile.newBuilder()
        .setPath(f.path())
        .addAllFields(f.fields())
        .addAllColumnIndices(f.columnIndices())
        .setFileMajorVersion(f.fileMajorVersion())
        .setFileMinorVersion(f.fileMinorVersion())
        .setFileSizeBytes(f.fileSizeBytes())
        .setUnknownFields(f.unknownFields());
    f.baseId().ifPresent(b::setBaseId);
    return b.build();
  }

  public static DeletionFile fromProto(TableProtos.DeletionFile p) {
    return new DeletionFile(
        p.getFileTypeValue(),
        p.getReadVersion(),
        p.getId(),
        p.getNumDeletedRows(),
        p.hasBaseId() ? OptionalInt.of(p.getBaseId()) : OptionalInt.empty(),
        p.getUnknownFields());
  }

  public static TableProtos.DeletionFile toProto(DeletionFile d) {
    TableProtos.DeletionFile.Builder b = TableProtos.DeletionFile.newBuilder()
        .setFileTypeValue(d.kindValue())
        .setReadVersion(d.readVersion())
        .setId(d.id())
        .setNumDeletedRows(d.numDeletedRows())
        .setUnknownFields(d.unknownFields());
    d.baseId().ifPresent(b::setBaseId);
    return b.build();
  }

  public static ExternalFile fromProto(TableProtos.ExternalFile p) {
    return new ExternalFile(p.getPath(), p.getOffset(), p.getSize(), p.getUnknownFields());
  }

  public static TableProtos.ExternalFile toProto(ExternalFile e) {
    return TableProtos.ExternalFile.newBuilder()
        .setPath(e.path())
        .setOffset(e.offset())
        .setSize(e.size())
        .setUnknownFields(e.unknownFields())
        .build();
  }

  /** Lance rejects an overlay without a data file or coverage; so do we. */
  public static DataOverlayFile fromProto(TableProtos.DataOverlayFile p, long fragmentId) {
    if (!p.hasDataFile()) {
      throw new FormatException("fragment " + fragmentId + " overlay", "data_file is required but was not set");
    }
    DataOverlayFile.Coverage coverage = switch (p.getCoverageCase()) {
      case SHARED_OFFSET_BITMAP -> new DataOverlayFile.SharedCoverage(p.getSharedOffsetBitmap());
      case FIELD_COVERAGE -> new DataOverlayFile.PerFieldCoverage(p.getFieldCoverage().getOffsetBitmapsList());
      case COVERAGE_NOT_SET -> throw new FormatException("fragment " + fragmentId + " overlay "
          + p.getDataFile().getPath(), "coverage is required but was not set");
    };
    return new DataOverlayFile(fromProto(p.getDataFile()), coverage, p.getCommittedVersion(),
        p.getUnknownFields());
  }

  public static TableProtos.DataOverlayFile toProto(DataOverlayFile o) {
    TableProtos.DataOverlayFile.Builder b = TableProtos.DataOverlayFile.newBuilder()
        .setDataFile(toProto(o.dataFile()))
        .setCommittedVersion(o.committedVersion())
        .setUnknownFields(o.unknownFields());
    if (o.coverage() instanceof DataOverlayFile.SharedCoverage shared) {
      b.setSharedOffsetBitmap(shared.offsetBitmap());
    } else if (o.coverage() instanceof DataOverlayFile.PerFieldCoverage perField) {
      b.setFieldCoverage(TableProtos.FieldCoverage.newBuilder().addAllOffsetBitmaps(perField.offsetBitmaps()));
    }
    return b.build();
  }

}
