package dev.lancet.core;

/**
 * A branch of that name exists already, or another writer claimed the name first (a creation
 * race has exactly one winner; the others get this).
 */
public final class BranchExistsException extends LancetException {
  private static final long serialVersionUID = 1L;

  public BranchExistsException(String message) {
    super(message);
  }

  public BranchExistsException(String message, Throwable cause) {
    super(message, cause);
  }
}
