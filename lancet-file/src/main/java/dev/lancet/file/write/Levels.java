package dev.lancet.file.write;

import dev.lancet.format.pb.Encodings21Protos.RepDefLayer;
import java.util.ArrayList;
import java.util.List;

/**
 * A page's repetition/definition layers and levels, from the per-entry codes a
 * {@link LeafColumn} records: 0 valid; {@code 2d} null at depth {@code d} from the top (the
 * outermost null layer); {@code 2d + 1} an empty list at depth {@code d}. Layers are listed
 * innermost first. An item or struct layer with a null in the page is {@code NULLABLE_ITEM} and
 * takes the next level, else {@code ALL_VALID_ITEM} and none; a list layer is
 * {@code ALL_VALID_LIST}, {@code NULLABLE_LIST} (a null level), {@code EMPTYABLE_LIST} (an empty
 * level) or {@code NULL_AND_EMPTY_LIST} (null, then empty) by what the page has (decision 0033).
 */
final class Levels {
  final List<RepDefLayer> layers;
  /** levelOf[code]: the definition level of an entry with that code. */
  private final int[] levelOf;
  final int maxLevel;
  /** The highest level of an entry that has a value (a null inside the innermost list). */
  final int maxVisibleLevel;

  private Levels(List<RepDefLayer> layers, int[] levelOf, int maxLevel, int maxVisibleLevel) {
    this.layers = layers;
    this.levelOf = levelOf;
    this.maxLevel = maxLevel;
    this.maxVisibleLevel = maxVisibleLevel;
  }

  /**
   * The levels of entries with codes {@code codes[0..n)} in a leaf {@code depth} layers deep;
   * {@code isList[d]} tells whether depth {@code d} is a list.
   */
  static Levels of(byte[] codes, int n, int depth, boolean[] isList) {
    boolean[] seen = new boolean[2 * depth + 2];
    for (int i = 0; i < n; i++) {
      seen[codes[i] & 0xFF] = true;
    }
    int[] levelOf = new int[2 * depth + 2];
    List<RepDefLayer> layers = new ArrayList<>(depth);
    int next = 1;
    int maxVisible = -1;
    for (int d = depth; d >= 1; d--) {
      boolean nulls = seen[2 * d];
      if (isList[d]) {
        if (maxVisible < 0) {
          maxVisible = next - 1;
        }
        boolean empties = seen[2 * d + 1];
        if (nulls && empties) {
          levelOf[2 * d] = next++;
          levelOf[2 * d + 1] = next++;
          layers.add(RepDefLayer.REPDEF_NULL_AND_EMPTY_LIST);
        } else if (nulls) {
          levelOf[2 * d] = next++;
          layers.add(RepDefLayer.REPDEF_NULLABLE_LIST);
        } else if (empties) {
          levelOf[2 * d + 1] = next++;
          layers.add(RepDefLayer.REPDEF_EMPTYABLE_LIST);
        } else {
          layers.add(RepDefLayer.REPDEF_ALL_VALID_LIST);
        }
      } else if (nulls) {
        levelOf[2 * d] = next++;
        layers.add(RepDefLayer.REPDEF_NULLABLE_ITEM);
      } else {
        layers.add(RepDefLayer.REPDEF_ALL_VALID_ITEM);
      }
    }
    return new Levels(List.copyOf(layers), levelOf, next - 1,
        maxVisible < 0 ? next - 1 : maxVisible);
  }

  boolean any() {
    return maxLevel > 0;
  }

  /** Bits a level takes (the bit length of the largest). */
  int width() {
    return 32 - Integer.numberOfLeadingZeros(maxLevel);
  }

  int level(byte code) {
    return levelOf[code & 0xFF];
  }
}
