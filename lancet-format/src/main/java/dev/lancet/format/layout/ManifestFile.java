package dev.lancet.format.layout;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.InvalidProtocolBufferException;
import dev.lancet.format.FormatException;
import dev.lancet.format.codec.IndexCodec;
import dev.lancet.format.codec.ManifestCodec;
import dev.lancet.format.model.IndexSegment;
import dev.lancet.format.model.Manifest;
import dev.lancet.format.pb.TableProtos;
import dev.lancet.format.pb.TransactionProtos;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The manifest file byte layout:
 *
 * <pre>
 *   [u32 L1][IndexSection]        optional, at manifest.index_section
 *   [u32 L2][Transaction]         optional, at manifest.transaction_section
 *   [u32 L3][Manifest]            mandatory, last
 *   [i64 offset of L3][u16 major=0][u16 minor=2]["LANC"]
 * </pre>
 *
 * All integers are little-endian. Every length and offset is checked against the file size
 * before use, so a corrupt file yields a {@link FormatException} naming the file and the
 * defect, never an allocation larger than the file.
 */
public final class ManifestFile {
  public static final int FOOTER_SIZE = 16;
  public static final byte[] MAGIC = {'L', 'A', 'N', 'C'};
  public static final short MAJOR = 0;
  public static final short MINOR = 2;

  private ManifestFile() {}

  /** What a manifest file holds. Indices and the transaction are decoded on first use. */
  public static final class Contents {
    private final byte[] bytes;
    private final String fileName;
    private final Manifest manifest;
    private List<IndexSegment> indices;
    private Optional<TransactionProtos.Transaction> transaction;

    private Contents(byte[] bytes, String fileName, Manifest manifest) {
      this.bytes = bytes;
      this.fileName = fileName;
      this.manifest = manifest;
    }

    public Manifest manifest() {
      return manifest;
    }

    public long sizeBytes() {
      return bytes.length;
    }

    /** The index segments of this version (empty when the file has no index section). */
    public synchronized List<IndexSegment> indices() {
      if (indices == null) {
        List<IndexSegment> read = readIndices(bytes, fileName, manifest.indexSection());
        ManifestValidator.validateIndices(read, manifest, fileName);
        indices = read;
      }
      return indices;
    }

    /** The inline transaction, when the file carries one. */
    public synchronized Optional<TransactionProtos.Transaction> inlineTransaction() {
      if (transaction == null) {
        transaction = readInlineTransaction(bytes, fileName, manifest.transactionSection());
      }
      return transaction;
    }
  }

  /**
   * Serializes a version. The section offsets in {@code manifest} are replaced by the ones
   * this layout assigns; everything else is written as given.
   */
  public static byte[] write(Manifest manifest, List<IndexSegment> indices,
      Optional<TransactionProtos.Transaction> transaction) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(4096);
    OptionalLong indexSection = OptionalLong.empty();
    if (!indices.isEmpty()) {
      indexSection = OptionalLong.of(out.size());
      writePrefixed(out, IndexCodec.toProto(indices).toByteArray());
    }
    OptionalLong transactionSection = OptionalLong.empty();
    if (transaction.isPresent()) {
      transactionSection = OptionalLong.of(out.size());
      writePrefixed(out, transaction.get().toByteArray());
    }
    Manifest stamped = manifest.toBuilder()
        .indexSection(indexSection)
        .transactionSection(transactionSection)
        .build();
    long manifestOffset = out.size();
    writePrefixed(out, ManifestCodec.toProto(stamped).toByteArray());
    ByteBuffer footer = ByteBuffer.allocate(FOOTER_SIZE).order(ByteOrder.LITTLE_ENDIAN);
    footer.putLong(manifestOffset).putShort(MAJOR).putShort(MINOR).put(MAGIC);
    out.writeBytes(footer.array());
    return out.toByteArray();
  }

  /**
   * Checks the 16-byte footer of a manifest file of {@code size} bytes and returns the offset of
   * the Manifest message's length prefix. A reader can run it on the file's last 16 bytes before
   * reading the rest, so that a large file that is not a manifest is refused unread.
   */
  public static long checkFooter(byte[] footer, int at, long size, String fileName) {
    if (size < FOOTER_SIZE) {
      throw new FormatException(fileName, "file is " + size + " bytes, shorter than the "
          + FOOTER_SIZE + "-byte footer (truncated?)");
    }
    ByteBuffer buf = ByteBuffer.wrap(footer).order(ByteOrder.LITTLE_ENDIAN);
    for (int i = 0; i < 4; i++) {
      if (footer[at + 12 + i] != MAGIC[i]) {
        throw new FormatException(fileName, "wrong magic: the file does not end in \"LANC\" "
            + "(not a Lance manifest, or truncated)");
      }
    }
    int major = Short.toUnsignedInt(buf.getShort(at + 8));
    int minor = Short.toUnsignedInt(buf.getShort(at + 10));
    if (major == 2 && minor == 1) {
      throw new FormatException(fileName, "footer version 2.1 is the experimental columnar "
          + "manifest, which Lancet does not read");
    }
    if (major != 0) {
      throw new FormatException(fileName, "unsupported manifest footer version " + major + "." + minor);
    }
    long manifestOffset = buf.getLong(at);
    if (manifestOffset < 0 || manifestOffset > size - FOOTER_SIZE - 4) {
      throw new FormatException(fileName, "manifest offset " + manifestOffset
          + " is outside the file (size " + size + ")");
    }
    return manifestOffset;
  }

  /** Reads and validates a whole manifest file; {@code fileName} is used in errors. */
  public static Contents read(byte[] bytes, String fileName) {
    long size = bytes.length;
    long manifestOffset = checkFooter(bytes, (int) Math.max(0, size - FOOTER_SIZE), size, fileName);
    ByteBuffer buf = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    long length = Integer.toUnsignedLong(buf.getInt((int) manifestOffset));
    long expected = size - FOOTER_SIZE - manifestOffset - 4;
    if (length != expected) {
      throw new FormatException(fileName, "manifest length " + length + " at offset "
          + manifestOffset + " does not reach the footer (expected " + expected + ")");
    }
    TableProtos.Manifest proto;
    try {
      CodedInputStream in = CodedInputStream.newInstance(bytes, (int) manifestOffset + 4, (int) length);
      proto = TableProtos.Manifest.parseFrom(in);
      in.checkLastTagWas(0);
    } catch (InvalidProtocolBufferException e) {
      throw new FormatException(fileName, "Manifest message is corrupt: " + e.getMessage(), e);
    } catch (IOException e) {
      throw new FormatException(fileName, "Manifest message is unreadable: " + e.getMessage(), e);
    }
    Manifest manifest;
    try {
      manifest = ManifestCodec.fromProto(proto);
    } catch (FormatException e) {
      throw new FormatException(fileName, e.getMessage(), e);
    }
    checkSection(fileName, "index section", manifest.indexSection(), manifestOffset);
    checkSection(fileName, "transaction section", manifest.transactionSection(), manifestOffset);
    return new Contents(bytes, fileName, manifest);
  }

  private static void checkSection(String fileName, String what, OptionalLong offset, long manifestOffset) {
    if (offset.isPresent() && (offset.getAsLong() < 0 || offset.getAsLong() + 4 > manifestOffset)) {
      throw new FormatException(fileName, what + " offset " + offset.getAsLong()
          + " is not before the manifest (at " + manifestOffset + ")");
    }
  }

  /** Validates a section's u32 length prefix and returns the payload's [start, length]. */
  private static int[] section(byte[] bytes, String fileName, String what, long offset) {
    ByteBuffer buf = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    if (offset < 0 || offset + 4 > bytes.length - FOOTER_SIZE) {
      throw new FormatException(fileName, what + " offset " + offset + " is outside the file");
    }
    long length = Integer.toUnsignedLong(buf.getInt((int) offset));
    if (offset + 4 + length > bytes.length - FOOTER_SIZE) {
      throw new FormatException(fileName, what + " length " + length + " at offset " + offset
          + " runs past the end of the file (size " + bytes.length + ")");
    }
    return new int[] {(int) offset + 4, (int) length};
  }

  static List<IndexSegment> readIndices(byte[] bytes, String fileName, OptionalLong offset) {
    if (offset.isEmpty()) {
      return List.of();
    }
    int[] s = section(bytes, fileName, "index section", offset.getAsLong());
    try {
      CodedInputStream in = CodedInputStream.newInstance(bytes, s[0], s[1]);
      TableProtos.IndexSection section = TableProtos.IndexSection.parseFrom(in);
      in.checkLastTagWas(0);
      List<IndexSegment> segments = List.copyOf(IndexCodec.fromProto(section, fileName));
      for (IndexSegment segment : segments) {
        // Decode each coverage bitmap now, so that a corrupt one is reported with the file.
        segment.coveredFragments();
      }
      return segments;
    } catch (FormatException e) {
      throw e.getMessage().startsWith(fileName) ? e : new FormatException(fileName, e.getMessage(), e);
    } catch (IOException e) {
      throw new FormatException(fileName, "index section is corrupt: " + e.getMessage(), e);
    }
  }

  static Optional<TransactionProtos.Transaction> readInlineTransaction(byte[] bytes, String fileName,
      OptionalLong offset) {
    if (offset.isEmpty()) {
      return Optional.empty();
    }
    int[] s = section(bytes, fileName, "transaction section", offset.getAsLong());
    return Optional.of(TransactionFile.decode(bytes, s[0], s[1], fileName + " transaction section"));
  }

  private static void writePrefixed(ByteArrayOutputStream out, byte[] payload) {
    ByteBuffer len = ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN);
    len.putInt(payload.length);
    out.writeBytes(len.array());
    out.writeBytes(payload);
  }
}
