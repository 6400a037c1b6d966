package dev.lancet.table;

import dev.lancet.core.action.Action;
import dev.lancet.core.commit.CommitResult;
import dev.lancet.core.transaction.TransactionBuilder;
import dev.lancet.format.rowids.RowIdSequence;
import dev.lancet.format.rowids.RowVersionSequence;
import dev.lancet.table.spi.WrittenFile;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * A transaction being planned: the view its statements plan against, one user step per
 * statement, and every file the statements wrote (deleted when the transaction does not commit).
 * A step's actions are made at commit ({@link Step#add(Supplier)}), so fragments that got a
 * reserved id after their step was planned are named by it.
 */
final class TxnPlan {
  /** Reserves ids for the transaction's fragments when a later statement must name them. */
  interface Reserver {
    void reserve(TxnPlan plan);
  }

  /** One statement's user step. */
  static final class Step {
    final String kind;
    final String description;
    private final List<Supplier<List<Action>>> sources = new ArrayList<>();

    Step(String kind, String description) {
      this.kind = kind;
      this.description = description;
    }

    void add(Action a) {
      sources.add(() -> List.of(a));
    }

    void add(Supplier<List<Action>> later) {
      sources.add(later);
    }

    boolean isEmpty() {
      return sources.isEmpty();
    }

    List<Action> actions() {
      List<Action> out = new ArrayList<>();
      for (Supplier<List<Action>> s : sources) {
        out.addAll(s.get());
      }
      return out;
    }
  }

  private final TableContext ctx;
  private final TableView view;
  private final Reserver reserver;
  private final List<Step> steps = new ArrayList<>();
  private final List<String> written = new ArrayList<>();
  private int nextToken;

  TxnPlan(TableContext ctx, TableView view, Reserver reserver) {
    this.ctx = ctx;
    this.view = view;
    this.reserver = reserver;
  }

  TableContext ctx() {
    return ctx;
  }

  TableView view() {
    return view;
  }

  Step step(String kind, String description) {
    Step s = new Step(kind, description);
    steps.add(s);
    return s;
  }

  List<Step> steps() {
    return steps;
  }

  boolean changesNothing() {
    return steps.stream().allMatch(Step::isEmpty);
  }

  /** Notes a file (a store path) the transaction wrote. */
  void wrote(String storePath) {
    written.add(storePath);
  }

  /** A new fragment of {@code file}, visible to the statements that follow. */
  PendingFragment addFragment(Step step, WrittenFile file, boolean dataChange,
      Optional<RowIdSequence> rowIds, Optional<RowVersionSequence> createdAt,
      Optional<RowVersionSequence> lastUpdatedAt) {
    PendingFragment p = new PendingFragment(nextToken++, file, dataChange, rowIds, createdAt,
        lastUpdatedAt);
    wrote("data/" + file.path());
    view.addPending(p);
    step.add(() -> p.actions(view::fieldRef));
    return p;
  }

  /** Gives every fragment the transaction wrote an id a deletion file can name. */
  void reserveIds() {
    reserver.reserve(this);
  }

  TransactionBuilder transaction() {
    TransactionBuilder txn = new TransactionBuilder(ctx.store(), ctx.uri(), view.read());
    List<String> kinds = new ArrayList<>();
    for (Step s : steps) {
      if (!s.isEmpty()) {
        List<Action> actions = s.actions();
        txn.step(s.description, b -> actions.forEach(b::action));
        kinds.add(s.kind);
      }
    }
    // One statement is named as itself; several are a multi-statement transaction.
    txn.property(dev.lancet.core.transaction.StatementName.PROPERTY,
        kinds.size() == 1 ? kinds.get(0) : "transaction");
    return txn;
  }

  /** Commits the steps as one version (the caller handles the files on failure). */
  CommitResult commit(Consumer<Attempt> onAttempt, int maxRetries) {
    return Commits.commit(transaction(), onAttempt, maxRetries);
  }

  /** Deletes every file the statements wrote (best effort: cleanup reclaims the rest). */
  void deleteWritten() {
    for (String path : written) {
      try {
        ctx.store().delete(path);
      } catch (IOException | RuntimeException e) {
        // unreferenced; cleanup removes it later
      }
    }
  }

  /** A plan whose fragments never need reserved ids (a single statement). */
  static Reserver noReservations() {
    return plan -> {
      throw new IllegalStateException("a single statement never names the fragments it writes");
    };
  }
}
