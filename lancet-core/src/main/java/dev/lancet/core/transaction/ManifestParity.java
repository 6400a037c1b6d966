package dev.lancet.core.transaction;

import dev.lancet.format.model.IndexSegment;
import dev.lancet.format.model.Manifest;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.RecordComponent;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Compares two manifests (and their index lists) component by component: every component of
 * the {@link Manifest} record, so a component added to the model later is compared too. The
 * write-form lowering uses it to prove a legacy operation exact; the parity tests use it with
 * the exemptions publishing makes (the transaction file, section and timestamp).
 */
public final class ManifestParity {
  private ManifestParity() {}

  /** The manifest components, by name, in declaration order. */
  public static List<String> components() {
    return java.util.Arrays.stream(Manifest.class.getRecordComponents())
        .map(RecordComponent::getName).toList();
  }

  /**
   * The first difference between {@code a} and {@code b} outside {@code exempt} (component
   * names), described, or empty when they agree.
   */
  public static Optional<String> difference(Manifest a, List<IndexSegment> aIndices, Manifest b,
      List<IndexSegment> bIndices, Set<String> exempt) {
    for (RecordComponent c : Manifest.class.getRecordComponents()) {
      if (exempt.contains(c.getName())) {
        continue;
      }
      Object x = value(c, a);
      Object y = value(c, b);
      if (!Objects.equals(x, y)) {
        return Optional.of(c.getName() + " differs: " + x + " vs " + y);
      }
    }
    if (!aIndices.equals(bIndices)) {
      return Optional.of("the index lists differ: " + aIndices + " vs " + bIndices);
    }
    return Optional.empty();
  }

  private static Object value(RecordComponent c, Manifest m) {
    try {
      return c.getAccessor().invoke(m);
    } catch (IllegalAccessException | InvocationTargetException e) {
      throw new IllegalStateException("reading manifest component " + c.getName(), e);
    }
  }
}
