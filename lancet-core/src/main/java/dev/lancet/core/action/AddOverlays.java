package dev.lancet.core.action;

import dev.lancet.core.apply.ApplyState;
import dev.lancet.core.conflict.FootprintBuilder;
import dev.lancet.format.model.DataOverlayFile;
import dev.lancet.format.model.Fragment;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Appends overlays (cell-level value replacements) to a fragment, after the ones already
 * there, each stamped with the version this commit produces (re-stamped on retry).
 */
public record AddOverlays(Ref fragment, List<DataOverlayFile> overlays, boolean dataChange)
    implements Action {

  public AddOverlays {
    Objects.requireNonNull(fragment, "fragment");
    overlays = List.copyOf(overlays);
  }

  @Override
  public boolean isDataChange() {
    return dataChange;
  }

  @Override
  public void apply(ApplyState state) {
    long fragmentId = state.resolveFragment(fragment);
    Fragment target = state.fragment(fragmentId, actionName());
    List<DataOverlayFile> all = new ArrayList<>(target.overlays());
    for (DataOverlayFile o : overlays) {
      for (int field : o.dataFile().fields()) {
        if (field >= 0 && state.field(field).isEmpty()) {
          throw state.invalid("AddOverlays file " + dev.lancet.format.Texts.quote(o.dataFile().path())
              + " for fragment " + Long.toUnsignedString(fragmentId) + " overlays field " + field
              + ", which does not exist");
        }
      }
      all.add(o.withCommittedVersion(state.newVersion()));
      state.noteAddedOverlay(fragmentId, o.dataFile());
    }
    state.putFragment(target.toBuilder().overlays(all).build());
  }

  /**
   * A partial write of every overlaid field of a committed fragment (newer overlays win), and
   * the cells it covers, per field.
   */
  @Override
  public void footprint(FootprintBuilder fp) {
    for (DataOverlayFile o : overlays) {
      fp.overlay(fragment, o);
    }
  }
}
