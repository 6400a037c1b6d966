package dev.lancet.core.operation;

/**
 * One of Lance's sixteen legacy single operations: the {@code operation} oneof of a
 * Transaction other than the V2 composite operation. Each is an immutable record over the
 * format model; {@link LegacyOperationCodec} converts to and from the wire, {@link LegacyApply}
 * builds the manifest it produces.
 */
public sealed interface LegacyOperation
    permits Append, Delete, Overwrite, CreateIndex, Rewrite, DataReplacement, DataOverlay, Merge,
        Restore, ReserveFragments, Update, Project, UpdateConfig, UpdateMemWalState, Clone,
        UpdateBases {

  /**
   * The operation's name as Lance's oneof arm names it ("Append", "UpdateMemWalState"); the
   * same text {@code TransactionFile.operationName} gives for a transaction carrying it.
   */
  String operationName();
}
