package dev.lancet.file.schema;

/**
 * A schema Lance cannot store, or a stored Lance type this library cannot map to Arrow: the
 * message names the column and says why. The table layer reports it as its own
 * invalid-input error.
 */
public final class SchemaException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  public SchemaException(String message) {
    super(message);
  }
}
