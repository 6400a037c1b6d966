package dev.lancet.core.commit;

import dev.lancet.format.model.IndexSegment;
import dev.lancet.format.model.Manifest;
import java.util.List;

/** A published version: its number, manifest and index list, and the transaction's uuid. */
public record CommitResult(long version, String transactionUuid, Manifest manifest,
    List<IndexSegment> indices, int attempts) {}
