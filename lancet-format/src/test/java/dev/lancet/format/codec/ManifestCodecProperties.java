package dev.lancet.format.codec;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancet.format.model.DataFile;
import dev.lancet.format.model.DeletionFile;
import dev.lancet.format.model.Fragment;
import dev.lancet.format.model.Manifest;
import dev.lancet.format.pb.TableProtos;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** Model → protobuf bytes → model is the identity, for random manifests. */
class ManifestCodecProperties {

  @Property(tries = 300)
  void manifestsRoundTripThroughBytes(@ForAll("manifests") Manifest m) throws Exception {
    byte[] bytes = ManifestCodec.toProto(m).toByteArray();
    Manifest back = ManifestCodec.fromProto(TableProtos.Manifest.parseFrom(bytes));
    assertThat(back).isEqualTo(m);
    // Map entries may be written in another order (as with Lance), so compare messages.
    assertThat(ManifestCodec.toProto(back)).isEqualTo(TableProtos.Manifest.parseFrom(bytes));
  }

  @Provide
  Arbitrary<Manifest> manifests() {
    Arbitrary<DataFile> files = Combinators.combine(
        Arbitraries.strings().alpha().ofMinLength(1).ofMaxLength(12),
        Arbitraries.integers().between(-2, 50).list().ofMaxSize(6),
        Arbitraries.integers().between(0, 3),
        Arbitraries.longs().between(0, 1L << 40))
        .as((path, fields, minor, size) -> new DataFile(path + ".lance", fields, List.of(), 2, minor, size));
    Arbitrary<Optional<DeletionFile>> deletions = Combinators.combine(
        Arbitraries.of(DeletionFile.Kind.values()), Arbitraries.longs().greaterOrEqual(0),
        Arbitraries.longs(), Arbitraries.longs().between(1, 1_000_000))
        .as((k, rv, id, n) -> new DeletionFile(k, rv, id, n)).optional();
    Arbitrary<Fragment> fragments = Combinators.combine(
        Arbitraries.longs().between(0, 1L << 32), files.list().ofMaxSize(4), deletions,
        Arbitraries.longs().between(0, 1L << 40))
        .as((id, fs, del, rows) -> Fragment.builder(id).files(fs).deletionFile(del).physicalRows(rows).build());
    return Combinators.combine(
        fragments.list().ofMaxSize(10),
        Arbitraries.longs().between(1, Long.MAX_VALUE),
        Arbitraries.maps(Arbitraries.strings().ofMaxLength(8), Arbitraries.strings().ofMaxLength(8)).ofMaxSize(4),
        Arbitraries.longs().between(0, 0xFFFF_FFFFL).optional(),
        Arbitraries.longs().between(0, 1L << 50),
        Arbitraries.longs().between(0, 255))
        .as((frags, version, config, maxFrag, nextRowId, flags) -> Manifest.builder()
            .fragments(frags).version(version).config(config)
            .maxFragmentId(maxFrag.map(OptionalLong::of).orElse(OptionalLong.empty()))
            .nextRowId(nextRowId).readerFeatureFlags(flags).writerFeatureFlags(flags)
            .tableMetadata(Map.of("k", "v")).build());
  }
}
