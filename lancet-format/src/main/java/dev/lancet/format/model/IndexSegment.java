package dev.lancet.format.model;

import com.google.protobuf.Any;
import com.google.protobuf.ByteString;
import com.google.protobuf.UnknownFieldSet;
import dev.lancet.format.FormatException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.UUID;
import org.roaringbitmap.buffer.ImmutableRoaringBitmap;

/**
 * One index segment (the manifest's IndexMetadata). Segments sharing a {@code name} form one
 * logical index. {@code fragmentBitmap} is kept as read (portable 32-bit Roaring, empty for
 * "unknown coverage"); {@link #coveredFragments()} decodes it. {@code indexDetails} is kept
 * opaque: its type URL and bytes survive a rewrite unchanged.
 *
 * <p>{@code coveringFields} (IndexMetadata field 11) are the columns the segment carries values
 * for without being keyed on them. Under the legacy contract they are the trailing entries of
 * {@code fields}, so {@code fields} is the whole dependency set and {@link #keyedFields()} the
 * keys; {@link #coveringProblem()} checks that contract.
 */
public record IndexSegment(
    UUID uuid,
    List<Integer> fields,
    String name,
    long datasetVersion,
    ByteString fragmentBitmap,
    Optional<Any> indexDetails,
    OptionalInt indexVersion,
    OptionalLong createdAt,
    OptionalInt baseId,
    List<IndexFile> files,
    List<Integer> coveringFields,
    UnknownFieldSet unknownFields) {

  /** A file of the segment, relative to {@code _indices/{uuid}/}. */
  public record IndexFile(String path, long sizeBytes, UnknownFieldSet unknownFields) {
    public IndexFile {
      Objects.requireNonNull(path, "path");
      Objects.requireNonNull(unknownFields, "unknownFields");
    }
  }

  public IndexSegment {
    Objects.requireNonNull(uuid, "uuid");
    fields = List.copyOf(fields);
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(fragmentBitmap, "fragmentBitmap");
    Objects.requireNonNull(indexDetails, "indexDetails");
    Objects.requireNonNull(indexVersion, "indexVersion");
    Objects.requireNonNull(createdAt, "createdAt");
    Objects.requireNonNull(baseId, "baseId");
    files = List.copyOf(files);
    coveringFields = List.copyOf(coveringFields);
    Objects.requireNonNull(unknownFields, "unknownFields");
  }

  /** The keys: {@code fields} without the trailing covering fields. */
  public List<Integer> keyedFields() {
    int keyed = Math.max(0, fields.size() - coveringFields.size());
    return fields.subList(0, keyed);
  }

  /**
   * What is wrong with the covering declaration under the legacy contract, or empty: every
   * covering field is one of {@code fields}, none repeats, at least one field stays a key, and
   * they are the trailing entries of {@code fields} in order (the rules of upstream's
   * {@code IndexMetadata::validate_covering_fields}, lance-format/lance
   * {@code rust/lance-table/src/format/index.rs} @e3db7c06).
   */
  public Optional<String> coveringProblem() {
    if (coveringFields.isEmpty()) {
      return Optional.empty();
    }
    List<Integer> missing = coveringFields.stream().filter(f -> !fields.contains(f)).toList();
    if (!missing.isEmpty()) {
      return Optional.of("index '" + name + "' declares covering fields " + coveringFields + " but "
          + missing + " are not among its fields " + fields);
    }
    if (new java.util.HashSet<>(coveringFields).size() != coveringFields.size()) {
      return Optional.of("index '" + name + "' declares a covering field more than once in " + coveringFields);
    }
    if (coveringFields.size() >= fields.size()) {
      return Optional.of("index '" + name + "' declares covering fields " + coveringFields + " but its fields are "
          + fields + "; at least one field must remain a key");
    }
    if (!fields.subList(fields.size() - coveringFields.size(), fields.size()).equals(coveringFields)) {
      return Optional.of("index '" + name + "' declares covering fields " + coveringFields + " that are not the "
          + "trailing entries of its fields " + fields + "; covering fields must come last");
    }
    return Optional.empty();
  }

  /** This segment covering the fragments in {@code bitmap}. */
  public IndexSegment withFragmentBitmap(org.roaringbitmap.RoaringBitmap bitmap) {
    return new IndexSegment(uuid, fields, name, datasetVersion, fragmentBitmapOf(bitmap), indexDetails,
        indexVersion, createdAt, baseId, files, coveringFields, unknownFields);
  }

  /** The covered fragment ids, or empty when the segment does not record its coverage. */
  public Optional<ImmutableRoaringBitmap> coveredFragments() {
    if (fragmentBitmap.isEmpty()) {
      return Optional.empty();
    }
    try {
      ImmutableRoaringBitmap bitmap = new ImmutableRoaringBitmap(fragmentBitmap.asReadOnlyByteBuffer());
      // Touch every container so corrupt bytes fail here and not in a later caller.
      bitmap.getCardinality();
      return Optional.of(bitmap);
    } catch (RuntimeException e) {
      throw new FormatException("index segment " + name + " (" + uuid + ")",
          "fragment_bitmap is not a valid portable Roaring bitmap", e);
    }
  }

  /** Type URL of the details message ("/lance.table.BTreeIndexDetails"), or "". */
  public String detailsTypeUrl() {
    return indexDetails.map(Any::getTypeUrl).orElse("");
  }

  /** Encodes a bitmap of fragment ids the way Lance stores {@code fragment_bitmap}. */
  public static ByteString fragmentBitmapOf(org.roaringbitmap.RoaringBitmap bitmap) {
    bitmap.runOptimize();
    ByteBuffer buf = ByteBuffer.allocate(bitmap.serializedSizeInBytes());
    bitmap.serialize(buf);
    return ByteString.copyFrom(buf.array());
  }

  /** Encodes a set of fragment ids the way Lance stores them in {@code fragment_bitmap}. */
  public static ByteString fragmentBitmapOf(Iterable<Long> fragmentIds) {
    org.roaringbitmap.RoaringBitmap bitmap = new org.roaringbitmap.RoaringBitmap();
    for (long id : fragmentIds) {
      bitmap.add((int) id);
    }
    return fragmentBitmapOf(bitmap);
  }

}
