package dev.lancet.file.read.v20;

import dev.lancet.file.BufferCodecs;
import dev.lancet.file.CorruptFileException;
import dev.lancet.file.UnsupportedFileException;
import dev.lancet.file.read.FsstSymbols;
import dev.lancet.format.pb.Encodings20Protos.ArrayEncoding;
import dev.lancet.format.pb.Encodings20Protos.Binary;
import dev.lancet.format.pb.Encodings20Protos.Flat;
import dev.lancet.format.pb.Encodings20Protos.Nullable;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * Binds a 2.0 page encoding ({@code ArrayEncoding}) to the page's buffers and checks it fits
 * the field's Arrow type: the encodings lance-core 7.0.0 writes in 2.0 files (decision 0031).
 * Anything else is an {@link UnsupportedFileException}; an encoding that contradicts the file
 * (a buffer it does not have, values past a buffer's end) a {@link CorruptFileException}.
 */
final class Encodings20 {
  private final Source src;
  private final PageBuffers buffers;
  private final String where;

  Encodings20(Source src, PageBuffers buffers, String where) {
    this.src = src;
    this.buffers = buffers;
    this.where = where;
  }

  /** The node of {@code e} holding {@code numValues} values of {@code field}. */
  Node parse(ArrayEncoding e, Field field, long numValues)
      throws CorruptFileException, UnsupportedFileException {
    ArrowType t = field.getType();
    if (field.getDictionary() != null) {
      throw new UnsupportedFileException(where + ": a dictionary-typed field");
    }
    int bits = fixedBits(t);
    if (bits > 0 || t instanceof ArrowType.FixedSizeList) {
      return nullable(e, field, numValues);
    }
    if (variable(t)) {
      return switch (e.getArrayEncodingCase()) {
        case BINARY -> binary(e.getBinary(), numValues);
        case FSST -> {
          if (!e.getFsst().getBinary().hasBinary()) {
            throw unsupported("an Fsst over " + e.getFsst().getBinary().getArrayEncodingCase());
          }
          BinaryNode b = binary(e.getFsst().getBinary().getBinary(), numValues);
          yield new FsstNode(where, b,
              FsstSymbols.parse(e.getFsst().getSymbolTable().toByteArray(), where));
        }
        case DICTIONARY -> {
          var d = e.getDictionary();
          if (!d.getItems().hasBinary()) {
            throw unsupported("dictionary items " + d.getItems().getArrayEncodingCase());
          }
          FlatNode idx = plainFlat(d.getIndices(), numValues, "dictionary indices");
          if (idx.bits() != 8 && idx.bits() != 16 && idx.bits() != 32) {
            throw unsupported("dictionary indices of " + idx.bits() + " bits");
          }
          long n = Integer.toUnsignedLong(d.getNumDictionaryItems());
          yield new DictionaryNode(where, idx, binary(d.getItems().getBinary(), n), (int) n);
        }
        default -> throw unsupported(e.getArrayEncodingCase() + " for " + t);
      };
    }
    if (t instanceof ArrowType.Struct && e.hasPackedStruct()) {
      return packed(e, field, numValues);
    }
    throw unsupported(e.getArrayEncodingCase() + " for " + t);
  }

  PackedNode packed(ArrayEncoding e, Field field, long numValues)
      throws CorruptFileException, UnsupportedFileException {
    if (!e.hasPackedStruct()) {
      throw unsupported(e.getArrayEncodingCase() + " where a packed struct was expected");
    }
    var p = e.getPackedStruct();
    List<Field> kids = field.getChildren();
    if (p.getInnerCount() != kids.size()) {
      throw new CorruptFileException(where + ": a packed struct of " + p.getInnerCount()
          + " fields for a struct of " + kids.size());
    }
    int[] widths = new int[kids.size()];
    int row = 0;
    for (int i = 0; i < widths.length; i++) {
      int b = fixedBits(kids.get(i).getType());
      if (b < 8 || kids.get(i).getDictionary() != null) {
        throw unsupported("a packed struct field of type " + kids.get(i).getType());
      }
      widths[i] = b / 8;
      row += widths[i];
    }
    if (row == 0) {
      throw unsupported("a packed struct without fields");
    }
    long[] buf = buffers.resolve(p.getBuffer(), where);
    FlatNode rows = new FlatNode(src, where + " (packed struct)", row * 8, buf[0], buf[1],
        Optional.empty(), numValues);
    return new PackedNode(where, rows, widths);
  }

  private Node nullable(ArrayEncoding e, Field field, long numValues)
      throws CorruptFileException, UnsupportedFileException {
    if (!e.hasNullable()) {
      return new NullableNode(NullableNode.Kind.NO, null, values(e, field, numValues));
    }
    Nullable n = e.getNullable();
    return switch (n.getNullabilityCase()) {
      case NO_NULLS -> new NullableNode(NullableNode.Kind.NO, null,
          values(n.getNoNulls().getValues(), field, numValues));
      case SOME_NULLS -> {
        FlatNode validity = flat(n.getSomeNulls().getValidity(), numValues, "validity");
        if (validity.bits() != 1 || validity.compressed()) {
          throw unsupported("validity of " + validity.describe());
        }
        yield new NullableNode(NullableNode.Kind.SOME, validity,
            values(n.getSomeNulls().getValues(), field, numValues));
      }
      case ALL_NULLS -> new NullableNode(NullableNode.Kind.ALL, null, null);
      default -> throw new CorruptFileException(where + ": a Nullable without its case");
    };
  }

  private Node values(ArrayEncoding e, Field field, long numValues)
      throws CorruptFileException, UnsupportedFileException {
    ArrowType t = field.getType();
    if (t instanceof ArrowType.FixedSizeList fsl) {
      if (!e.hasFixedSizeList()) {
        throw unsupported(e.getArrayEncodingCase() + " for " + t);
      }
      var f = e.getFixedSizeList();
      if (Integer.toUnsignedLong(f.getDimension()) != fsl.getListSize()) {
        throw new CorruptFileException(where + ": a fixed-size list of " + f.getDimension()
            + " items for " + t);
      }
      if (f.getHasValidity()) {
        throw unsupported("a fixed-size list with its own validity");
      }
      long items;
      try {
        items = Math.multiplyExact(numValues, (long) fsl.getListSize());
      } catch (ArithmeticException x) {
        throw new CorruptFileException(where + ": " + numValues + " lists of "
            + fsl.getListSize());
      }
      Field child = field.getChildren().get(0);
      if (!(fixedBits(child.getType()) > 0 || child.getType() instanceof ArrowType.FixedSizeList)) {
        throw unsupported("a fixed-size list of " + child.getType());
      }
      return new FslNode(fsl.getListSize(), nullable(f.getItems(), child, items));
    }
    FlatNode flat = flat(e, numValues, "values");
    if (flat.bits() != fixedBits(t) || flat.compressed()) {
      throw unsupported(flat.describe() + " for " + t);
    }
    return flat;
  }

  private BinaryNode binary(Binary b, long numValues)
      throws CorruptFileException, UnsupportedFileException {
    FlatNode indices = plainFlat(b.getIndices(), numValues, "binary indices");
    if (indices.bits() != 64) {
      throw unsupported("binary indices of " + indices.bits() + " bits");
    }
    FlatNode bytes = flat(b.getBytes(), 0, "binary bytes");
    if (bytes.bits() != 8) {
      throw unsupported("binary bytes of " + bytes.bits() + " bits");
    }
    return new BinaryNode(where, indices, bytes, b.getNullAdjustment(), numValues);
  }

  /** A Flat, alone or under a Nullable without nulls, uncompressed (indices, offsets). */
  FlatNode plainFlat(ArrayEncoding e, long numValues, String what)
      throws CorruptFileException, UnsupportedFileException {
    ArrayEncoding inner = e;
    if (e.hasNullable()) {
      if (!e.getNullable().hasNoNulls()) {
        throw unsupported(what + " with nulls (" + e.getNullable().getNullabilityCase() + ")");
      }
      inner = e.getNullable().getNoNulls().getValues();
    }
    FlatNode f = flat(inner, numValues, what);
    if (f.compressed() || f.bits() % 8 != 0 || f.bits() > 64) {
      throw unsupported(what + " as " + f.describe());
    }
    return f;
  }

  private FlatNode flat(ArrayEncoding e, long numValues, String what)
      throws CorruptFileException, UnsupportedFileException {
    if (!e.hasFlat()) {
      throw unsupported(what + " as " + e.getArrayEncodingCase());
    }
    Flat f = e.getFlat();
    long bits = f.getBitsPerValue();
    if (bits != 1 && (bits <= 0 || bits % 8 != 0 || bits > 8L * 65536)) {
      throw unsupported(what + " of " + Long.toUnsignedString(bits) + " bits a value");
    }
    Optional<BufferCodecs.Scheme> scheme = Optional.empty();
    if (f.hasCompression() && !f.getCompression().getScheme().equals("none")) {
      scheme = BufferCodecs.Scheme.named(f.getCompression().getScheme());
      if (scheme.isEmpty()) {
        throw unsupported(what + " compressed with '" + f.getCompression().getScheme() + "'");
      }
      if (bits != 8) {
        throw unsupported(what + " of " + bits + " bits compressed");
      }
    }
    long[] buf = buffers.resolve(f.getBuffer(), where);
    return new FlatNode(src, where + " (" + what + ")", (int) bits, buf[0], buf[1], scheme,
        numValues);
  }

  private UnsupportedFileException unsupported(String what) {
    return new UnsupportedFileException(where + ": " + what + " is not an encoding the Java "
        + "reader decodes in 2.0 files");
  }

  /** Bits of a value of a fixed-width Arrow type stored as Flat, or -1. */
  static int fixedBits(ArrowType t) {
    return switch (t.getTypeID()) {
      case Bool -> 1;
      case Int -> ((ArrowType.Int) t).getBitWidth();
      case FloatingPoint -> switch (((ArrowType.FloatingPoint) t).getPrecision()) {
        case HALF -> 16;
        case SINGLE -> 32;
        case DOUBLE -> 64;
      };
      case Date -> ((ArrowType.Date) t).getUnit() == org.apache.arrow.vector.types.DateUnit.DAY
          ? 32 : 64;
      case Time -> ((ArrowType.Time) t).getBitWidth();
      case Timestamp, Duration -> 64;
      case Decimal -> ((ArrowType.Decimal) t).getBitWidth();
      case FixedSizeBinary -> 8 * ((ArrowType.FixedSizeBinary) t).getByteWidth();
      default -> -1;
    };
  }

  static boolean variable(ArrowType t) {
    return switch (t.getTypeID()) {
      case Utf8, Binary, LargeUtf8, LargeBinary -> true;
      default -> false;
    };
  }
}
