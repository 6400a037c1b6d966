package dev.lancet.file.write;

import dev.lancet.format.pb.Encodings21Protos.RepDefLayer;
import java.util.ArrayList;
import java.util.List;

/**
 * A page's definition levels, from the per-item null codes a {@link LeafColumn} records (0:
 * valid; {@code d}: null at depth {@code d} from the top, the outermost null layer). Layers are
 * listed innermost first; a layer with a null in the page is {@code NULLABLE_ITEM} and takes the
 * next level (1, 2, ...), one without is {@code ALL_VALID_ITEM} and takes none (decision 0030).
 */
final class Levels {
  final List<RepDefLayer> layers;
  /** levelOf[d]: the definition level of a null at depth d (1..depth). */
  final int[] levelOf;
  final int maxLevel;

  private Levels(List<RepDefLayer> layers, int[] levelOf, int maxLevel) {
    this.layers = layers;
    this.levelOf = levelOf;
    this.maxLevel = maxLevel;
  }

  /** The levels of items with codes {@code codes[0..n)} in a leaf {@code depth} layers deep. */
  static Levels of(byte[] codes, int n, int depth) {
    boolean[] hasNull = new boolean[depth + 1];
    for (int i = 0; i < n; i++) {
      hasNull[codes[i]] = true;
    }
    int[] levelOf = new int[depth + 1];
    List<RepDefLayer> layers = new ArrayList<>(depth);
    int next = 1;
    for (int d = depth; d >= 1; d--) {
      if (hasNull[d]) {
        levelOf[d] = next++;
        layers.add(RepDefLayer.REPDEF_NULLABLE_ITEM);
      } else {
        layers.add(RepDefLayer.REPDEF_ALL_VALID_ITEM);
      }
    }
    return new Levels(List.copyOf(layers), levelOf, next - 1);
  }

  boolean any() {
    return maxLevel > 0;
  }

  /** Bits a level takes (the bit length of the largest). */
  int width() {
    return 32 - Integer.numberOfLeadingZeros(maxLevel);
  }

  int level(byte code) {
    return levelOf[code];
  }
}
