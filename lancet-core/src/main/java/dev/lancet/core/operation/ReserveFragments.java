package dev.lancet.core.operation;

/** Reserves fragment ids by raising the high-water mark; {@code numFragments} is a u32. */
public record ReserveFragments(long numFragments) implements LegacyOperation {
  public ReserveFragments {
    if (numFragments < 0 || numFragments > 0xFFFF_FFFFL) {
      throw new IllegalArgumentException("ReserveFragments.num_fragments must fit an unsigned "
          + "32-bit number, got " + numFragments);
    }
  }

  @Override
  public String operationName() {
    return "ReserveFragments";
  }
}
