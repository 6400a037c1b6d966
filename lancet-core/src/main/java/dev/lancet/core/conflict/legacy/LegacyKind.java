package dev.lancet.core.conflict.legacy;

import dev.lancet.format.pb.TransactionProtos;
import java.util.Optional;

/**
 * The sixteen legacy operations and the composite operation, with the abbreviations of the
 * legacy conflict matrix (seed §9).
 */
public enum LegacyKind {
  APPEND("AP", "Append"),
  DELETE("DL", "Delete"),
  OVERWRITE("OW", "Overwrite"),
  CREATE_INDEX("CI", "CreateIndex"),
  REWRITE("RW", "Rewrite"),
  DATA_REPLACEMENT("DR", "DataReplacement"),
  DATA_OVERLAY("DO", "DataOverlay"),
  MERGE("MG", "Merge"),
  RESTORE("RS", "Restore"),
  RESERVE_FRAGMENTS("RF", "ReserveFragments"),
  UPDATE("UP", "Update"),
  PROJECT("PJ", "Project"),
  UPDATE_CONFIG("UC", "UpdateConfig"),
  UPDATE_MEM_WAL_STATE("MW", "UpdateMemWalState"),
  CLONE("CL", "Clone"),
  UPDATE_BASES("UB", "UpdateBases"),
  COMPOSITE("CO", "CompositeOperation");

  private final String abbreviation;
  private final String operationName;

  LegacyKind(String abbreviation, String operationName) {
    this.abbreviation = abbreviation;
    this.operationName = operationName;
  }

  /** The matrix abbreviation (AP, DL, ...). */
  public String abbreviation() {
    return abbreviation;
  }

  /** The operation's name in the Lance format (Append, Delete, ...). */
  public String operationName() {
    return operationName;
  }

  /** The kind whose abbreviation is {@code abbreviation}. */
  public static LegacyKind fromAbbreviation(String abbreviation) {
    for (LegacyKind k : values()) {
      if (k.abbreviation.equals(abbreviation)) {
        return k;
      }
    }
    throw new IllegalArgumentException("unknown operation abbreviation '" + abbreviation
        + "'; expected one of AP DL OW CI RW DR DO MG RS RF UP PJ UC MW CL UB CO");
  }

  /** The operation a transaction carries; empty when it carries none this build knows. */
  public static Optional<LegacyKind> of(TransactionProtos.Transaction txn) {
    switch (txn.getOperationCase()) {
      case APPEND: return Optional.of(APPEND);
      case DELETE: return Optional.of(DELETE);
      case OVERWRITE: return Optional.of(OVERWRITE);
      case CREATE_INDEX: return Optional.of(CREATE_INDEX);
      case REWRITE: return Optional.of(REWRITE);
      case DATA_REPLACEMENT: return Optional.of(DATA_REPLACEMENT);
      case DATA_OVERLAY: return Optional.of(DATA_OVERLAY);
      case MERGE: return Optional.of(MERGE);
      case RESTORE: return Optional.of(RESTORE);
      case RESERVE_FRAGMENTS: return Optional.of(RESERVE_FRAGMENTS);
      case UPDATE: return Optional.of(UPDATE);
      case PROJECT: return Optional.of(PROJECT);
      case UPDATE_CONFIG: return Optional.of(UPDATE_CONFIG);
      case UPDATE_MEM_WAL_STATE: return Optional.of(UPDATE_MEM_WAL_STATE);
      case CLONE: return Optional.of(CLONE);
      case UPDATE_BASES: return Optional.of(UPDATE_BASES);
      case COMPOSITE_OPERATION: return Optional.of(COMPOSITE);
      default: return Optional.empty();
    }
  }
}
