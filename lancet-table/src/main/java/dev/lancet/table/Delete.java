package dev.lancet.table;

import dev.lancet.core.version.Snapshot;
import dev.lancet.table.expr.BoundPredicate;
import dev.lancet.table.expr.Predicate;
import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * Deletes the rows a SQL filter selects (Lance's filter semantics, docs/decisions/0013): one
 * Transaction V2 step of SetDeletionFile per fragment with matching rows (its deletion vector
 * merged with the rows), RemoveFragment where no row is left. Nothing is committed when no row
 * matches. Only the filter's columns are read.
 *
 * <pre>{@code
 * StatementResult r = table.newDelete().where("region = 'eu' AND ts < date '2024-01-01'").commit();
 * r.rowsDeleted(); r.version(); // empty when nothing matched
 * }</pre>
 */
public final class Delete extends StatementBuilder<Delete> {
  private Predicate predicate;

  Delete(TableContext ctx, Supplier<Snapshot> latest) {
    super(ctx, latest);
  }

  @Override
  Delete self() {
    return this;
  }

  /** The rows to delete: a SQL filter such as {@code "id % 10 = 0"}. */
  public Delete where(String filter) {
    // Parsed once here (a bad filter fails at the call); each plan only binds it.
    this.predicate = Sql.parseFilter(Objects.requireNonNull(filter, "filter"), "WHERE");
    return this;
  }

  public StatementResult commit() {
    if (predicate == null) {
      throw new InvalidInputException("a delete needs a filter: call where(\"...\") (\"true\" "
          + "deletes every row)");
    }
    return run(new DeleteStatement(predicate, batchSize));
  }

  /** The statement, for transactions. */
  static final class DeleteStatement implements Statement {
    private final Predicate predicate;
    private final int batchSize;

    DeleteStatement(Predicate predicate, int batchSize) {
      this.predicate = predicate;
      this.batchSize = batchSize;
    }

    @Override
    public String kind() {
      return "delete";
    }

    @Override
    public String describe() {
      return "delete where " + predicate.sql();
    }

    @Override
    public Counts plan(TxnPlan plan, TxnPlan.Step step) {
      TableView view = plan.view();
      BoundPredicate filter = Sql.bindFilter(predicate, view.arrowSchema(), "WHERE");
      List<ViewFragment> fragments = view.fragments();
      // Fragments are independent: matched, and their deletion files written, in parallel.
      return new Counts(Deletions.deleteMatching(plan, step, fragments,
          f -> Matches.of(view, f, filter, batchSize)), 0, 0);
    }
  }
}
