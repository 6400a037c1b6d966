package dev.lancet.table;

/**
 * A published write: the version it created, its transaction's uuid, the attempts it took, and
 * the rows and data files it wrote (zero for a change of metadata only).
 */
public record CommitInfo(long version, String transactionUuid, int attempts, long rowsWritten,
    int filesWritten) {}
