package dev.lancet.file.write;

/**
 * A batch (or schema) the writer refuses, before any of it reaches the file: a null in a
 * non-nullable field, a vector that does not match the schema, a value or shape a Lance 2.1 file
 * cannot hold. The message names the column and, where there is one, the row.
 */
public final class InvalidBatchException extends IllegalArgumentException {
  public InvalidBatchException(String message) {
    super(message);
  }
}
