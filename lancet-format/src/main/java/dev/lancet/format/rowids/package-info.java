/**
 * Row-id and row-version metadata of fragments: {@link dev.lancet.format.rowids.RowIdSequence}
 * ({@code RowIdSequence}), {@link dev.lancet.format.rowids.RowVersionSequence} ({@code
 * RowDatasetVersionSequence}) and their building block {@link
 * dev.lancet.format.rowids.U64Segment}. Decoders check every length and invariant and report
 * defects as {@link dev.lancet.format.FormatException}s.
 */
package dev.lancet.format.rowids;
