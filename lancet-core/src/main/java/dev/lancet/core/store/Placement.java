package dev.lancet.core.store;

/**
 * Where a location (a base path a manifest names) lies relative to a table's root: inside it
 * (under a relative directory prefix, {@code ""} for the root itself), outside it, or undecided
 * (the two are spelled in ways Lancet cannot compare; whoever must not guess fails closed).
 */
public sealed interface Placement {
  /** Inside the table, under {@code prefix} ({@code ""} or a path ending in '/'). */
  record Inside(String prefix) implements Placement {}

  /** Somewhere else: no file of the table is there. */
  record Outside() implements Placement {}

  /** Not comparable with the table's location; {@code reason} says why. */
  record Undecided(String reason) implements Placement {}
}
