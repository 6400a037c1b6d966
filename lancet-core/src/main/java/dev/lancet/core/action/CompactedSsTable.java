package dev.lancet.core.action;

import java.util.Objects;
import java.util.UUID;

/** A MemWAL SSTable (shard, generation) whose rows were merged into the table. */
public record CompactedSsTable(UUID shardId, long generation) {
  public CompactedSsTable {
    Objects.requireNonNull(shardId, "shardId");
  }
}
