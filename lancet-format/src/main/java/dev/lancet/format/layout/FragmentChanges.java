package dev.lancet.format.layout;

import dev.lancet.format.model.Fragment;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Pairs each fragment of a new manifest with the fragment of the same id in the version it was
 * built on, to tell what a commit changed. Both lists are normally sorted by id (Lance and
 * Lancet write them so), and then they are walked together without allocating; otherwise the
 * previous fragments are looked up by id.
 */
public final class FragmentChanges {
  private FragmentChanges() {}

  /** Receives each fragment of the new manifest with its previous version (null when new). */
  @FunctionalInterface
  public interface Visitor {
    void visit(Fragment now, Fragment before, boolean changed);
  }

  public static void walk(List<Fragment> before, List<Fragment> after, Visitor visitor) {
    Map<Long, Fragment> lookup = isSorted(before) && isSorted(after) ? null : byId(before);
    int cursor = 0;
    for (Fragment f : after) {
      Fragment was;
      if (lookup != null) {
        was = lookup.get(f.id());
      } else {
        while (cursor < before.size() && before.get(cursor).id() < f.id()) {
          cursor++;
        }
        was = cursor < before.size() && before.get(cursor).id() == f.id() ? before.get(cursor) : null;
      }
      // Fragments a commit leaves alone are the same objects; equals settles the rest.
      boolean changed = was != f && (was == null || !was.equals(f));
      visitor.visit(f, was, changed);
    }
  }

  private static boolean isSorted(List<Fragment> fragments) {
    for (int i = 1; i < fragments.size(); i++) {
      if (fragments.get(i - 1).id() >= fragments.get(i).id()) {
        return false;
      }
    }
    return true;
  }

  private static Map<Long, Fragment> byId(List<Fragment> fragments) {
    Map<Long, Fragment> out = new HashMap<>(fragments.size() * 2);
    for (Fragment f : fragments) {
      out.putIfAbsent(f.id(), f);
    }
    return out;
  }
}
