package dev.lancet.core.transaction;

import dev.lancet.format.pb.TransactionProtos.Transaction;

/**
 * What a version's commit did, in the words of the statement that made it ("merge insert",
 * "compaction", "add columns"), whatever operation carried it: a commit Lancet's table layer
 * made says so in the transaction property {@link #PROPERTY}; any other commit (a lance-core
 * writer's, an older Lancet's) is named from its operation.
 */
public final class StatementName {
  /** The transaction property the table layer names its statement in. */
  public static final String PROPERTY = "lancet.statement";

  private StatementName() {}

  /**
   * The descriptions of {@code txn}'s user steps: a composite operation's own, or the one a
   * statement written in legacy form keeps in {@link WriteForm#STEP_PROPERTY} (decision 0023);
   * empty for another writer's legacy operation.
   */
  public static java.util.List<String> steps(Transaction txn) {
    java.util.List<String> out = new java.util.ArrayList<>();
    if (txn.hasCompositeOperation()) {
      for (dev.lancet.format.pb.ActionProtos.UserAction step
          : txn.getCompositeOperation().getActionsList()) {
        out.add(step.getDescription().isEmpty() ? "(no description)" : step.getDescription());
      }
    } else if (txn.containsTransactionProperties(WriteForm.STEP_PROPERTY)) {
      out.add(txn.getTransactionPropertiesOrThrow(WriteForm.STEP_PROPERTY));
    }
    return out;
  }

  /** The statement that made {@code version}, committed as {@code txn}. */
  public static String of(Transaction txn, long version) {
    String recorded = txn.getTransactionPropertiesOrDefault(PROPERTY, "");
    if (!recorded.isEmpty()) {
      return recorded;
    }
    return switch (txn.getOperationCase()) {
      case APPEND -> "append";
      case DELETE -> "delete";
      case OVERWRITE -> version == 1 ? "create" : "overwrite";
      case CREATE_INDEX -> "create index";
      case REWRITE -> "compaction";
      case MERGE -> "add columns";
      case RESTORE -> "restore";
      case RESERVE_FRAGMENTS -> "reserve fragment ids";
      case UPDATE -> "update";
      case PROJECT -> "change columns";
      case UPDATE_CONFIG -> "change config";
      case DATA_REPLACEMENT -> "replace column data";
      case UPDATE_MEM_WAL_STATE -> "update mem-wal state";
      case CLONE -> "clone";
      case UPDATE_BASES -> "update base paths";
      case DATA_OVERLAY -> "overlay column data";
      case COMPOSITE_OPERATION -> "composite operation";
      default -> "unknown operation";
    };
  }
}
