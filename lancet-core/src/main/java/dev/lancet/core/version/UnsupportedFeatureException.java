package dev.lancet.core.version;

import dev.lancet.core.LancetException;

/** A manifest sets a feature bit this build of Lancet does not implement. */
public class UnsupportedFeatureException extends LancetException {
  private static final long serialVersionUID = 1L;

  public UnsupportedFeatureException(String message) {
    super(message);
  }
}
