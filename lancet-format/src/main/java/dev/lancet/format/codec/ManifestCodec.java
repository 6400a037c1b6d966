package dev.lancet.format.codec;

import com.google.protobuf.Timestamp;
import dev.lancet.format.model.BasePath;
import dev.lancet.format.model.DataStorageFormat;
import dev.lancet.format.model.Fragment;
import dev.lancet.format.model.Manifest;
import dev.lancet.format.model.WriterVersion;
import dev.lancet.format.pb.TableProtos;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/** Converts the Manifest message to and from the model, keeping fields a newer Lance wrote. */
public final class ManifestCodec {
  private ManifestCodec() {}

  public static Manifest fromProto(TableProtos.Manifest p) {
    List<Fragment> fragments = new ArrayList<>(p.getFragmentsCount());
    for (TableProtos.DataFragment f : p.getFragmentsList()) {
      fragments.add(FragmentCodec.fromProto(f));
    }
    List<BasePath> bases = new ArrayList<>(p.getBasePathsCount());
    for (TableProtos.BasePath b : p.getBasePathsList()) {
      bases.add(fromProto(b));
    }
    return new Manifest(
        SchemaCodec.schemaOf(p.getFieldsList(), p.getSchemaMetadataMap()),
        fragments,
        p.getVersion(),
        p.getVersionAuxData(),
        p.hasWriterVersion() ? Optional.of(fromProto(p.getWriterVersion())) : Optional.empty(),
        p.hasIndexSection() ? OptionalLong.of(p.getIndexSection()) : OptionalLong.empty(),
        p.hasTimestamp()
            ? Optional.of(Instant.ofEpochSecond(p.getTimestamp().getSeconds(), p.getTimestamp().getNanos()))
            : Optional.empty(),
        p.getTag(),
        p.getReaderFeatureFlags(),
        p.getWriterFeatureFlags(),
        p.hasMaxFragmentId()
            ? OptionalLong.of(Integer.toUnsignedLong(p.getMaxFragmentId()))
            : OptionalLong.empty(),
        p.getTransactionFile(),
        p.hasTransactionSection() ? OptionalLong.of(p.getTransactionSection()) : OptionalLong.empty(),
        p.getNextRowId(),
        p.hasDataFormat()
            ? Optional.of(new DataStorageFormat(p.getDataFormat().getFileFormat(),
                p.getDataFormat().getVersion(), p.getDataFormat().getUnknownFields()))
            : Optional.empty(),
        p.getConfigMap(),
        p.getTableMetadataMap(),
        bases,
        p.hasBranch() ? Optional.of(p.getBranch()) : Optional.empty(),
        p.getUnknownFields());
  }

  public static TableProtos.Manifest toProto(Manifest m) {
    TableProtos.Manifest.Builder b = TableProtos.Manifest.newBuilder()
        .addAllFields(SchemaCodec.fieldsToProto(m.schema().fields()))
        .putAllSchemaMetadata(m.schema().metadata())
        .setVersion(m.version())
        .setVersionAuxData(m.versionAuxData())
        .setTag(m.tag())
        .setReaderFeatureFlags(m.readerFeatureFlags())
        .setWriterFeatureFlags(m.writerFeatureFlags())
        .setTransactionFile(m.transactionFile())
        .setNextRowId(m.nextRowId())
        .putAllConfig(m.config())
        .putAllTableMetadata(m.tableMetadata())
        .setUnknownFields(m.unknownFields());
    for (Fragment f : m.fragments()) {
      b.addFragments(FragmentCodec.toProto(f));
    }
    m.writerVersion().ifPresent(w -> b.setWriterVersion(toProto(w)));
    m.indexSection().ifPresent(b::setIndexSection);
    m.timestamp().ifPresent(t -> b.setTimestamp(
        Timestamp.newBuilder().setSeconds(t.getEpochSecond()).setNanos(t.getNano())));
    m.maxFragmentId().ifPresent(v -> b.setMaxFragmentId((int) v));
    m.transactionSection().ifPresent(b::setTransactionSection);
    m.dataFormat().ifPresent(d -> b.setDataFormat(TableProtos.Manifest.DataStorageFormat.newBuilder()
        .setFileFormat(d.fileFormat())
        .setVersion(d.version())
        .setUnknownFields(d.unknownFields())));
    for (BasePath base : m.basePaths()) {
      b.addBasePaths(toProto(base));
    }
    m.branch().ifPresent(b::setBranch);
    return b.build();
  }

  public static WriterVersion fromProto(TableProtos.Manifest.WriterVersion p) {
    return new WriterVersion(
        p.getLibrary(),
        p.getVersion(),
        p.hasPrerelease() ? Optional.of(p.getPrerelease()) : Optional.empty(),
        p.hasBuildMetadata() ? Optional.of(p.getBuildMetadata()) : Optional.empty(),
        p.getUnknownFields());
  }

  public static TableProtos.Manifest.WriterVersion toProto(WriterVersion w) {
    TableProtos.Manifest.WriterVersion.Builder b = TableProtos.Manifest.WriterVersion.newBuilder()
        .setLibrary(w.library())
        .setVersion(w.version())
        .setUnknownFields(w.unknownFields());
    w.prerelease().ifPresent(b::setPrerelease);
    w.buildMetadata().ifPresent(b::setBuildMetadata);
    return b.build();
  }

  public static BasePath fromProto(TableProtos.BasePath p) {
    return new BasePath(p.getId(), p.hasName() ? Optional.of(p.getName()) : Optional.empty(),
        p.getIsDatasetRoot(), p.getPath(), p.getUnknownFields());
  }

  public static TableProtos.BasePath toProto(BasePath base) {
    TableProtos.BasePath.Builder b = TableProtos.BasePath.newBuilder()
        .setId(base.id())
        .setIsDatasetRoot(base.isDatasetRoot())
        .setPath(base.path())
        .setUnknownFields(base.unknownFields());
    base.name().ifPresent(b::setName);
    return b.build();
  }
}
