package dev.lancet.file.read.v20;

/**
 * How a blob column (field metadata {@code lance-encoding:blob}) is read: as the bytes, as
 * lance-core 7.0.0's file reader gives it by default, or as the descriptions (a struct of u64
 * {@code position} and {@code size} per row, (1, 0) for a null), as its table scan gives it.
 */
public enum BlobMode {
  BYTES, DESCRIPTIONS
}
