package dev.lancet.core.keys;

import com.google.protobuf.ByteString;
import dev.lancet.core.action.KeyExistenceFilter;
import java.util.Arrays;

/**
 * A split-block Bloom filter (SBBF) as specified by Apache Parquet, over 64-bit key hashes from
 * {@link KeyHasher}.
 *
 * <p>The filter is an array of 256-bit blocks, each eight 32-bit words. Inserting a hash picks one
 * block from the hash's upper 32 bits ({@code (upper32 × numBlocks) >>> 32}) and sets exactly one
 * bit in each of the block's eight words: bit {@code (lower32 × SALT[i]) >>> 27} (32-bit
 * multiplication) of word {@code i}. Lookup checks the same eight bits.
 *
 * <p>Sizing follows Parquet's optimal-bits formula {@code m = -8·n / ln(1 - p^(1/8))}, rounded up
 * to whole 256-bit blocks (not to a power of two, since the block selection works for any block
 * count). On the wire the bitmap is the words in order, each little-endian; {@code num_bits} is
 * the bitmap length in bits; {@code number_of_items} and {@code probability} record the sizing
 * inputs so readers can tell comparable filters apart.
 */
public final class SplitBlockBloomFilter {

  /** Bytes per block (256 bits). */
  public static final int BLOCK_BYTES = 32;

  private static final int[] SALT = {
      0x47b6137b, 0x44974d91, 0x8824ad5b, 0xa2b7289d,
      0x705495c7, 0x2df1424b, 0x9efc4947, 0x5c6bfb31};

  private final int[] words;
  private final int numBlocks;
  private final long numberOfItems;
  private final double probability;

  private SplitBlockBloomFilter(int[] words, long numberOfItems, double probability) {
    this.words = words;
    this.numBlocks = words.length / 8;
    this.numberOfItems = numberOfItems;
    this.probability = probability;
  }

  /** An empty filter sized for {@code numberOfItems} keys at false-positive rate {@code probability}. */
  public static SplitBlockBloomFilter create(long numberOfItems, double probability) {
    return new SplitBlockBloomFilter(new int[numBlocks(numberOfItems, probability) * 8],
        numberOfItems, probability);
  }

  /** An empty filter with the default sizing (8192 items at 0.00057). */
  public static SplitBlockBloomFilter createDefault() {
    return create(KeyExistenceFilter.DEFAULT_NUMBER_OF_ITEMS, KeyExistenceFilter.DEFAULT_PROBABILITY);
  }

  /** The number of 256-bit blocks for the given sizing (at least one). */
  public static int numBlocks(long numberOfItems, double probability) {
    if (numberOfItems <= 0) {
      throw new IllegalArgumentException("numberOfItems must be positive: " + numberOfItems);
    }
    if (!(probability > 0.0 && probability < 1.0)) {
      throw new IllegalArgumentException("probability must be in (0, 1): " + probability);
    }
    double bits = -8.0 * numberOfItems / Math.log(1.0 - Math.pow(probability, 1.0 / 8.0));
    double blocks = Math.ceil(bits / 256.0);
    if (blocks > Integer.MAX_VALUE / 8) {
      throw new IllegalArgumentException("Bloom filter too large for " + numberOfItems + " items");
    }
    return Math.max(1, (int) blocks);
  }

  public void insert(long hash) {
    int base = blockIndex(hash) * 8;
    int key = (int) hash;
    for (int i = 0; i < 8; i++) {
      words[base + i] |= 1 << ((key * SALT[i]) >>> 27);
    }
  }

  public boolean mightContain(long hash) {
    int base = blockIndex(hash) * 8;
    int key = (int) hash;
    for (int i = 0; i < 8; i++) {
      if ((words[base + i] & (1 << ((key * SALT[i]) >>> 27))) == 0) {
        return false;
      }
    }
    return true;
  }

  /**
   * Whether this filter and {@code other} (which must have the same number of blocks) may hold a
   * common hash. A hash inserted into both sets one bit in each of the eight words of the same
   * block index in both bitmaps, so a shared hash implies some block where all eight word-wise
   * ANDs are non-zero; the test returns true exactly when such a block exists. It therefore never
   * misses a shared key (no false negatives); it may report an intersection that does not exist.
   *
   * @throws IllegalArgumentException when the block counts differ (not comparable)
   */
  public boolean mightIntersect(SplitBlockBloomFilter other) {
    if (other.numBlocks != numBlocks) {
      throw new IllegalArgumentException("Bloom filters with " + numBlocks + " and "
          + other.numBlocks + " blocks cannot be compared");
    }
    for (int block = 0; block < numBlocks; block++) {
      int base = block * 8;
      boolean all = true;
      for (int i = 0; i < 8 && all; i++) {
        all = (words[base + i] & other.words[base + i]) != 0;
      }
      if (all) {
        return true;
      }
    }
    return false;
  }

  private int blockIndex(long hash) {
    return (int) (((hash >>> 32) * numBlocks) >>> 32);
  }

  public int numBlocks() {
    return numBlocks;
  }

  public int numBits() {
    return numBlocks * 256;
  }

  public long numberOfItems() {
    return numberOfItems;
  }

  public double probability() {
    return probability;
  }

  /** The wire bitmap: every word little-endian, in order. */
  public byte[] toBytes() {
    byte[] out = new byte[words.length * 4];
    for (int w = 0; w < words.length; w++) {
      int v = words[w];
      out[4 * w] = (byte) v;
      out[4 * w + 1] = (byte) (v >>> 8);
      out[4 * w + 2] = (byte) (v >>> 16);
      out[4 * w + 3] = (byte) (v >>> 24);
    }
    return out;
  }

  /**
   * A filter from a wire bitmap and its recorded sizing.
   *
   * @throws IllegalArgumentException when the bitmap is empty or not whole 32-byte blocks
   */
  public static SplitBlockBloomFilter fromBytes(byte[] bitmap, long numberOfItems, double probability) {
    if (bitmap.length == 0 || bitmap.length % BLOCK_BYTES != 0) {
      throw new IllegalArgumentException("a split-block Bloom bitmap must be a positive multiple of "
          + BLOCK_BYTES + " bytes, got " + bitmap.length);
    }
    int[] words = new int[bitmap.length / 4];
    for (int w = 0; w < words.length; w++) {
      words[w] = (bitmap[4 * w] & 0xFF) | (bitmap[4 * w + 1] & 0xFF) << 8
          | (bitmap[4 * w + 2] & 0xFF) << 16 | (bitmap[4 * w + 3] & 0xFF) << 24;
    }
    return new SplitBlockBloomFilter(words, numberOfItems, probability);
  }

  /** This filter as the model's Bloom variant. */
  public KeyExistenceFilter.Bloom toModel() {
    return new KeyExistenceFilter.Bloom(ByteString.copyFrom(toBytes()), numBits(), numberOfItems,
        probability);
  }

  /**
   * A filter from the model's Bloom variant; a zero number of items or probability stands for the
   * default (as on the wire).
   *
   * @throws IllegalArgumentException when the bitmap is not whole blocks or {@code numBits} does
   *     not match its length
   */
  public static SplitBlockBloomFilter fromModel(KeyExistenceFilter.Bloom bloom) {
    byte[] bytes = bloom.bitmap().toByteArray();
    if ((long) bloom.numBits() != (long) bytes.length * 8) {
      throw new IllegalArgumentException("num_bits " + Integer.toUnsignedString(bloom.numBits())
          + " does not match a bitmap of " + bytes.length + " bytes");
    }
    return fromBytes(bytes, KeyFilters.items(bloom), KeyFilters.probability(bloom));
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof SplitBlockBloomFilter f && Arrays.equals(words, f.words)
        && numberOfItems == f.numberOfItems
        && Double.compare(probability, f.probability) == 0;
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(words);
  }
}
