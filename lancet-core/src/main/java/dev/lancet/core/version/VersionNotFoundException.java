package dev.lancet.core.version;

import dev.lancet.core.LancetException;

/** The table has no such version, tag or branch (or no versions at all). */
public class VersionNotFoundException extends LancetException {
  private static final long serialVersionUID = 1L;

  public VersionNotFoundException(String message) {
    super(message);
  }
}
