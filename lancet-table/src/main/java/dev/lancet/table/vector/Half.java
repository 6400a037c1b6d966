package dev.lancet.table.vector;

/** IEEE 754 half-precision (float16) values, as Arrow stores them (the raw 16 bits). */
public final class Half {
  private Half() {}

  /** The float16 {@code bits} as a float (exact: every half value is a float). */
  public static float toFloat(short bits) {
    int h = bits & 0xffff;
    int sign = (h & 0x8000) << 16;
    int exp = (h >>> 10) & 0x1f;
    int mant = h & 0x3ff;
    if (exp == 0x1f) {
      return Float.intBitsToFloat(sign | 0x7f80_0000 | (mant << 13));
    }
    if (exp == 0) {
      // zero or subnormal: mant * 2^-24
      float v = mant * 0x1p-24f;
      return sign == 0 ? v : -v;
    }
    return Float.intBitsToFloat(sign | ((exp + 112) << 23) | (mant << 13));
  }

  /** {@code f} rounded to the nearest float16 (ties to even), as bits. */
  public static short fromFloat(float f) {
    int bits = Float.floatToRawIntBits(f);
    int sign = (bits >>> 16) & 0x8000;
    int abs = bits & 0x7fff_ffff;
    if (abs >= 0x7f80_0000) { // infinity or NaN
      return (short) (sign | 0x7c00 | (abs > 0x7f80_0000 ? 0x200 : 0));
    }
    if (abs >= 0x477f_f000) { // rounds to beyond the largest half: infinity
      return (short) (sign | 0x7c00);
    }
    int exp = abs >>> 23;
    if (exp < 113) { // a half subnormal or zero: round abs / 2^-24 to an integer, ties to even
      float scaled = Float.intBitsToFloat(abs) * 0x1p24f;
      int m = (int) Math.rint(scaled);
      return (short) (sign | m); // m == 0x400 carries into the smallest normal, as it should
    }
    int mant = abs & 0x7f_ffff;
    int half = ((exp - 112) << 10) | (mant >>> 13);
    int rest = mant & 0x1fff;
    if (rest > 0x1000 || (rest == 0x1000 && (half & 1) == 1)) {
      half++; // may carry into the exponent: still the right value
    }
    return (short) (sign | half);
  }

  /** {@code f} rounded to float16 and back. */
  public static float round(float f) {
    return toFloat(fromFloat(f));
  }
}
