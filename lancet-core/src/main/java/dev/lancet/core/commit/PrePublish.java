package dev.lancet.core.commit;

import dev.lancet.core.apply.ApplyException;
import dev.lancet.core.apply.Provenance;
import dev.lancet.core.store.ObjectStore;
import dev.lancet.format.layout.InvalidManifestException;
import dev.lancet.format.layout.ManifestValidator;
import dev.lancet.format.model.IndexSegment;
import dev.lancet.format.model.Manifest;
import java.io.IOException;
import java.util.List;
import java.util.Objects;

/**
 * What every commit checks before it writes its first byte (not even the .txn file): the
 * manifest it would publish keeps the reader's rules and lance-core's
 * ({@link ManifestValidator#validateNext}), and the files it adds are in the store
 * ({@link NewFileCheck}, unless the caller vouches for them). A violation is an
 * {@link ApplyException} naming the action (step and index, or the legacy operation) that
 * produced the part at fault, and the fragment, field, file, base or index.
 */
public final class PrePublish {
  private final PublishChecks checks;
  private final NewFileCheck files;

  public PrePublish(ObjectStore store, PublishChecks checks) {
    this.checks = Objects.requireNonNull(checks, "checks");
    this.files = checks.verifyNewFiles() ? new NewFileCheck(store) : null;
  }

  /** The manifest rules only (no I/O). */
  public void validate(Manifest previous, List<IndexSegment> previousIndices, Manifest next,
      List<IndexSegment> nextIndices, Provenance provenance) {
    try {
      ManifestValidator.validateNext(previous, previousIndices, next, nextIndices, checks.basePaths());
    } catch (InvalidManifestException e) {
      throw new ApplyException(provenance.where(e.subject()), e.problem());
    }
  }

  /** The manifest rules, then the new files (one request per file not verified before). */
  public void check(Manifest previous, List<IndexSegment> previousIndices, Manifest next,
      List<IndexSegment> nextIndices, Provenance provenance) throws IOException {
    validate(previous, previousIndices, next, nextIndices, provenance);
    checkFiles(previous, previousIndices, next, nextIndices, provenance);
  }

  /** The new files only (after {@link #validate}): one request per file not verified before. */
  public void checkFiles(Manifest previous, List<IndexSegment> previousIndices, Manifest next,
      List<IndexSegment> nextIndices, Provenance provenance) throws IOException {
    if (files != null) {
      files.check(previous, previousIndices, next, nextIndices, provenance);
    }
  }
}
