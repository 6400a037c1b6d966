package dev.lancet.file.write;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * FSST compression of strings (after Boncz, Neumann and Leis, "FSST: Fast Random Access String
 * Compression", VLDB 2020; our own code): a table of up to 255 symbols of 1 to 8 bytes is
 * trained on a sample of the page, then every value is rewritten as symbol codes, a byte that no
 * symbol covers written as escape 255 and the byte itself. Training runs a few generations: the
 * sample is compressed with the current table, and the next table keeps the symbols and
 * concatenations of adjacent symbols that would save the most bytes (count × length).
 *
 * <p>The table is exported as the fsst crate lays it out and lance-core 7.0.0 reads it (see
 * {@code dev.lancet.file.read.FsstSymbols}): a u64 header ("FSST" in the upper 32 bits, bit 24
 * set: compressed, the low byte the symbol count), the symbols as u64 words, their lengths, the
 * whole padded to 8 + 256 × 8 + 256 bytes.
 */
final class FsstEncoder {
  static final int TABLE_BYTES = 8 + 256 * 8 + 256;
  private static final long MAGIC = 0x46535354L << 32;
  private static final int ESCAPE = 255;
  private static final int MAX_SYMBOLS = 255;
  private static final int SAMPLE_BYTES = 1 << 15;
  private static final int GENERATIONS = 5;

  private record Sym(long value, int len) {}

  private static final java.lang.invoke.VarHandle LONG_LE =
      java.lang.invoke.MethodHandles.byteArrayViewVarHandle(long[].class,
          java.nio.ByteOrder.LITTLE_ENDIAN);
  private static final int SLOTS = 1024; // open addressing for the 3-byte prefixes

  private final long[] values;
  private final int[] lens;
  /** The code of the 1-byte symbol of each byte, of the 2-byte symbol of each pair, or -1. */
  private final int[] one = new int[256];
  private final int[] two = new int[1 << 16];
  /** Symbols of 3+ bytes by their first three bytes: slot keys (prefix + 1) and codes. */
  private final int[] prefixKeys = new int[SLOTS];
  private final int[][] prefixCodes = new int[SLOTS][];

  private FsstEncoder(List<Sym> symbols) {
    values = new long[symbols.size()];
    lens = new int[symbols.size()];
    Arrays.fill(one, -1);
    Arrays.fill(two, -1);
    Map<Integer, List<Integer>> longer = new HashMap<>();
    for (int i = 0; i < symbols.size(); i++) {
      values[i] = symbols.get(i).value();
      lens[i] = symbols.get(i).len();
      if (lens[i] == 1) {
        one[(int) values[i]] = i;
      } else if (lens[i] == 2) {
        two[(int) values[i]] = i;
      } else {
        longer.computeIfAbsent((int) (values[i] & 0xFFFFFF), k -> new ArrayList<>()).add(i);
      }
    }
    for (Map.Entry<Integer, List<Integer>> e : longer.entrySet()) {
      int slot = slot(e.getKey());
      prefixKeys[slot] = e.getKey() + 1;
      prefixCodes[slot] = e.getValue().stream().sorted((x, y) -> lens[y] - lens[x])
          .mapToInt(Integer::intValue).toArray();
    }
  }

  /** The slot of 3-byte prefix {@code key}: its own, or the first free one after its hash. */
  private int slot(int key) {
    int h = (key * 0x9E3779B1) >>> 22;
    while (prefixKeys[h] != 0 && prefixKeys[h] != key + 1) {
      h = (h + 1) & (SLOTS - 1);
    }
    return h;
  }

  int symbols() {
    return values.length;
  }

  /**
   * Trains a table on values {@code [0, n)} of {@code bytes} (value i ending at {@code ends[i]}),
   * sampling about 32 KiB spread over them.
   */
  static FsstEncoder train(byte[] bytes, long[] ends, int n) {
    long total = n == 0 ? 0 : ends[n - 1];
    int stride = (int) Math.max(1, total / SAMPLE_BYTES);
    List<int[]> sample = new ArrayList<>();
    long taken = 0;
    for (int i = 0; i < n && taken < SAMPLE_BYTES; i += stride) {
      long start = i == 0 ? 0 : ends[i - 1];
      if (ends[i] > start) {
        sample.add(new int[] {(int) start, (int) (ends[i] - start)});
        taken += ends[i] - start;
      }
    }
    FsstEncoder table = new FsstEncoder(List.of());
    for (int g = 0; g < GENERATIONS; g++) {
      Map<Sym, Integer> gains = new HashMap<>();
      for (int[] v : sample) {
        int p = v[0];
        int end = v[0] + v[1];
        Sym last = null;
        while (p < end) {
          int code = table.match(bytes, p, end);
          Sym s = code < 0 ? new Sym(bytes[p] & 0xFFL, 1)
              : new Sym(table.values[code], table.lens[code]);
          gains.merge(s, s.len(), Integer::sum);
          if (last != null && last.len() + s.len() <= 8) {
            Sym both = new Sym(last.value() | s.value() << (8 * last.len()),
                last.len() + s.len());
            gains.merge(both, both.len(), Integer::sum);
          }
          last = s;
          p += s.len();
        }
      }
      List<Map.Entry<Sym, Integer>> best = new ArrayList<>(gains.entrySet());
      best.sort((a, b) -> b.getValue() - a.getValue());
      List<Sym> next = new ArrayList<>();
      for (int i = 0; i < best.size() && next.size() < MAX_SYMBOLS; i++) {
        next.add(best.get(i).getKey());
      }
      table = new FsstEncoder(next);
    }
    return table;
  }

  /** The code of the longest symbol matching {@code bytes} at {@code p} (before end), or -1. */
  private int match(byte[] bytes, int p, int end) {
    int avail = Math.min(8, end - p);
    long word;
    if (p + 8 <= bytes.length) {
      word = (long) LONG_LE.get(bytes, p);
    } else {
      word = 0;
      for (int k = 0; k < avail; k++) {
        word |= (bytes[p + k] & 0xFFL) << (8 * k);
      }
    }
    if (avail >= 3) {
      int key = (int) (word & 0xFFFFFF);
      int[] codes = prefixCodes[slot(key)];
      if (codes != null) {
        for (int c : codes) {
          int len = lens[c];
          if (len <= avail) {
            long mask = len == 8 ? -1L : (1L << (8 * len)) - 1;
            if ((word & mask) == values[c]) {
              return c;
            }
          }
        }
      }
    }
    if (avail >= 2) {
      int c = two[(int) (word & 0xFFFF)];
      if (c >= 0) {
        return c;
      }
    }
    return one[(int) (word & 0xFF)];
  }

  /** Appends the compressed form of {@code bytes[from, to)} to {@code out}. */
  void compress(byte[] bytes, int from, int to, Bytes out) {
    out.reserve(2 * (to - from));
    byte[] a = out.array();
    int o = out.size();
    int p = from;
    while (p < to) {
      int code = match(bytes, p, to);
      if (code < 0) {
        a[o++] = (byte) ESCAPE;
        a[o++] = bytes[p];
        p++;
      } else {
        a[o++] = (byte) code;
        p += lens[code];
      }
    }
    out.advance(o - out.size());
  }

  /** The symbol table as lance-core reads it. */
  byte[] export() {
    Bytes b = new Bytes(TABLE_BYTES);
    b.u64(MAGIC | 1L << 24 | values.length);
    for (long v : values) {
      b.u64(v);
    }
    for (int l : lens) {
      b.u8(l);
    }
    byte[] table = Arrays.copyOf(b.toArray(), TABLE_BYTES);
    return table;
  }
}
