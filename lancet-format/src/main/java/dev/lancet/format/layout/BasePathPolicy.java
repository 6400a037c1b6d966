package dev.lancet.format.layout;

import java.util.List;

/**
 * Which locations a commit may register as base paths (AddBase, UpdateBases, an Overwrite's
 * initial bases). A base path points Lance at files outside the table: a real Lance feature
 * (multi-bucket tables, shallow clones), and also a way to make every reader of the table read
 * any file the writer names (after AddBase {@code /etc} and a data file {@code passwd}, lance-core
 * reads {@code /etc/passwd}). So no location is allowed unless the caller says so: the default
 * is {@link #denyAll()}. See docs/decisions/0015-validate-before-publishing.md.
 *
 * <p>{@code allowed} holds location prefixes ({@code s3://bucket/tables}, {@code /data/shared});
 * a base is allowed when its path equals one or lies below one (segment-wise: {@code /data/x}
 * allows {@code /data/x/y}, not {@code /data/xy}). {@code anyLocation} allows any well-formed
 * location. The syntax rules (absolute, no {@code ..}, ...) apply whatever the policy.
 */
public record BasePathPolicy(boolean anyLocation, List<String> allowed) {
  private static final BasePathPolicy DENY_ALL = new BasePathPolicy(false, List.of());
  private static final BasePathPolicy ALLOW_ALL = new BasePathPolicy(true, List.of());

  public BasePathPolicy {
    allowed = List.copyOf(allowed);
  }

  /** No new base path is accepted (the default). */
  public static BasePathPolicy denyAll() {
    return DENY_ALL;
  }

  /** Every well-formed base path is accepted. */
  public static BasePathPolicy allowAll() {
    return ALLOW_ALL;
  }

  /** Base paths at or below one of {@code locations} are accepted. */
  public static BasePathPolicy allowUnder(List<String> locations) {
    return new BasePathPolicy(false, locations);
  }

  /** Whether a (well-formed) base path is allowed. */
  public boolean allows(String path) {
    if (anyLocation) {
      return true;
    }
    String p = stripSlash(path);
    for (String root : allowed) {
      String r = stripSlash(root);
      if (!r.isEmpty() && (p.equals(r) || p.startsWith(r + "/"))) {
        return true;
      }
    }
    return false;
  }

  /** How a user widens the policy, for error messages. */
  public String describe() {
    if (anyLocation) {
      return "every location is allowed";
    }
    if (allowed.isEmpty()) {
      return "no location is allowed (the default)";
    }
    return "only locations under " + allowed + " are allowed";
  }

  private static String stripSlash(String s) {
    return s.length() > 1 && s.endsWith("/") ? s.substring(0, s.length() - 1) : s;
  }
}
