package dev.lancet.table.vector;

/** One row a search found: its distance, row id (the tie-breaker) and row address. */
public record Hit(float distance, long rowId, long rowAddress) {}
