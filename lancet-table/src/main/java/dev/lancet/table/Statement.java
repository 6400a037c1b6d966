package dev.lancet.table;

/** A row-level statement: plans itself into one user step of a transaction. */
interface Statement {
  /** Rows the statement deleted, updated and inserted. */
  record Counts(long deleted, long updated, long inserted) {
    static final Counts NONE = new Counts(0, 0, 0);

    Counts plus(Counts o) {
      return new Counts(deleted + o.deleted, updated + o.updated, inserted + o.inserted);
    }
  }

  /**
   * What kind of statement this is, in the words the history uses ("delete", "merge insert"):
   * recorded with the commit ({@link dev.lancet.core.transaction.StatementName}).
   */
  String kind();

  /** What the statement's step is called in the history. */
  String describe();

  /** Plans the statement against {@code plan}'s view, adding its step; its counts. */
  Counts plan(TxnPlan plan, TxnPlan.Step step);

  /**
   * The keys this statement wrote whose hashes are among {@code keyHashes} (a key collision's
   * shared hashes), spelled for people; empty for statements that assert no keys.
   */
  default java.util.List<String> keysWithHashes(java.util.Set<Long> keyHashes) {
    return java.util.List.of();
  }
}
