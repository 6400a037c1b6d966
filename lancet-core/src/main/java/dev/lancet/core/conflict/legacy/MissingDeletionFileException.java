package dev.lancet.core.conflict.legacy;

import dev.lancet.core.LancetException;

/**
 * A deletion file the manifest names does not exist: the version that wrote it is damaged (or a
 * writer published it before writing the file). Not a store hiccup, so not retried.
 */
public class MissingDeletionFileException extends LancetException {
  private static final long serialVersionUID = 1L;

  public MissingDeletionFileException(long fragmentId, String path) {
    super("the deletion file of fragment " + Long.toUnsignedString(fragmentId) + " (" + path
        + ") does not exist");
  }
}
