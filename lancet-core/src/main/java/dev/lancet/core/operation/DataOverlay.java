package dev.lancet.core.operation;

import dev.lancet.format.model.DataOverlayFile;
import java.util.List;

/** New cell values for existing fragments, as overlay files appended to each fragment. */
public record DataOverlay(List<Group> groups) implements LegacyOperation {

  /** Overlays for one fragment; their committed version is stamped at commit. */
  public record Group(long fragmentId, List<DataOverlayFile> overlays) {
    public Group {
      overlays = List.copyOf(overlays);
    }
  }

  public DataOverlay {
    groups = List.copyOf(groups);
  }

  @Override
  public String operationName() {
    return "DataOverlay";
  }
}
