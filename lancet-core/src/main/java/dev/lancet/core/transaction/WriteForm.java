package dev.lancet.core.transaction;

import dev.lancet.core.operation.InvalidOperationException;
import dev.lancet.format.model.Manifest;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * How a table's commits are written (docs/decisions/0022): every commit as a Transaction V2
 * composite operation, or, where one of Lance's legacy operations expresses the commit exactly,
 * as that legacy operation, which every Lance 7 writer can decode and check against.
 *
 * <p>The table's durable choice is the config key {@value #CONFIG_KEY}; a table without it is
 * {@link #LEGACY_WHEN_EXACT} ({@link #DEFAULT}), since most Lance tables are shared with
 * lance-core writers.
 */
public enum WriteForm {
  /** Every commit is a composite operation (lance-core 7.0.0 cannot check against these). */
  COMPOSITE("composite"),
  /**
   * A commit whose effect one legacy operation expresses exactly is committed as that operation
   * (stored inline in the manifest and as a .txn file); the rest as a composite operation.
   */
  LEGACY_WHEN_EXACT("legacy_when_exact");

  /** The table config key that holds the table's write form. */
  public static final String CONFIG_KEY = "lancet.write_form";

  /**
   * The transaction property that keeps, in legacy form, the description of the one user step a
   * lowered commit had (a legacy operation has no step to carry it).
   */
  public static final String STEP_PROPERTY = "lancet.step";

  /** The write form of a table whose config does not name one. */
  public static final WriteForm DEFAULT = LEGACY_WHEN_EXACT;

  private final String configValue;

  WriteForm(String configValue) {
    this.configValue = configValue;
  }

  /** The value of {@value #CONFIG_KEY} that selects this form. */
  public String configValue() {
    return configValue;
  }

  /** The form a config value names; an unknown value is an {@link InvalidOperationException}. */
  public static WriteForm parse(String value) {
    for (WriteForm f : values()) {
      if (f.configValue.equals(value.trim().toLowerCase(Locale.ROOT))) {
        return f;
      }
    }
    throw new InvalidOperationException("config " + CONFIG_KEY, "'" + value + "' is not a write "
        + "form: use 'composite' or 'legacy_when_exact' (docs/decisions/0022)");
  }

  /** The form {@code config} names, or empty when it does not name one. */
  public static Optional<WriteForm> named(Map<String, String> config) {
    String v = config.get(CONFIG_KEY);
    return v == null ? Optional.empty() : Optional.of(parse(v));
  }

  /**
   * The write form of the table whose manifest is {@code m}; a value the table holds that is not
   * a write form is an error naming it and how to fix it.
   */
  public static WriteForm of(Manifest m) {
    try {
      return named(m.config()).orElse(DEFAULT);
    } catch (InvalidOperationException e) {
      throw new InvalidOperationException("the table's config at version " + m.version(),
          e.getMessage() + "; set it with a config update (for example "
          + "table.newTransaction().setConfig(\"" + CONFIG_KEY + "\", \"legacy_when_exact\"))");
    }
  }

  /** Whether {@code op} sets {@value #CONFIG_KEY} (to a value {@link #checkValues} accepted). */
  static boolean sets(dev.lancet.core.action.CompositeOperation op) {
    return op.steps().stream().flatMap(s -> s.actions().stream())
        .anyMatch(a -> a instanceof dev.lancet.core.action.ConfigUpdate c && c.config().isPresent()
            && c.config().get().entries().stream()
                .anyMatch(e -> e.key().equals(CONFIG_KEY) && e.value().isPresent()));
  }

  /** Rejects a value of {@value #CONFIG_KEY} that is not a write form, before anything is written. */
  static void checkValues(dev.lancet.core.action.CompositeOperation op) {
    for (dev.lancet.core.action.UserStep step : op.steps()) {
      for (dev.lancet.core.action.Action a : step.actions()) {
        if (a instanceof dev.lancet.core.action.ConfigUpdate c && c.config().isPresent()) {
          for (dev.lancet.core.action.UpdateMap.Entry e : c.config().get().entries()) {
            if (e.key().equals(CONFIG_KEY) && e.value().isPresent()) {
              parse(e.value().get());
            }
          }
        }
      }
    }
  }

  /** Rejects a legacy operation that sets {@value #CONFIG_KEY} to a value that is not a write form. */
  static void checkValues(dev.lancet.core.operation.LegacyOperation op) {
    if (op instanceof dev.lancet.core.operation.UpdateConfig u && u.configUpdates().isPresent()) {
      for (dev.lancet.core.action.UpdateMap.Entry e : u.configUpdates().get().entries()) {
        if (e.key().equals(CONFIG_KEY) && e.value().isPresent()) {
          parse(e.value().get());
        }
      }
    } else if (op instanceof dev.lancet.core.operation.Overwrite o
        && o.configUpsertValues().containsKey(CONFIG_KEY)) {
      parse(o.configUpsertValues().get(CONFIG_KEY));
    }
  }
}
