package dev.lancet.demo;

import dev.lancet.core.Table;
import dev.lancet.core.transaction.TransactionBuilder;
import dev.lancet.core.version.Snapshot;

/**
 * Plans one transaction against a version the writer read: writes whatever files it needs and
 * returns the transaction, its read version set to {@code read}. Called again, against a newer
 * version, after a typed conflict.
 */
@FunctionalInterface
public interface Planner {
  TransactionBuilder plan(Table table, Snapshot read);
}
