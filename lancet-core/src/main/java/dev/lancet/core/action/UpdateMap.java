package dev.lancet.core.action;

import dev.lancet.format.pb.CommonProtos;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A change to a string map: with {@code replace}, the map is rebuilt from the entries that
 * have a value; otherwise entries apply in order, a value setting its key and no value
 * removing it.
 */
public record UpdateMap(List<Entry> entries, boolean replace) {

  /** One key change; an empty value removes the key. */
  public record Entry(String key, Optional<String> value) {
    public Entry {
      Objects.requireNonNull(key, "key");
      Objects.requireNonNull(value, "value");
    }
  }

  public UpdateMap {
    entries = List.copyOf(entries);
  }

  public static UpdateMap merge(Map<String, String> upserts, List<String> deletes) {
    List<Entry> entries = new ArrayList<>();
    upserts.forEach((k, v) -> entries.add(new Entry(k, Optional.of(v))));
    for (String k : deletes) {
      entries.add(new Entry(k, Optional.empty()));
    }
    return new UpdateMap(entries, false);
  }

  public static UpdateMap set(String key, String value) {
    return new UpdateMap(List.of(new Entry(key, Optional.of(value))), false);
  }

  public static UpdateMap remove(String key) {
    return new UpdateMap(List.of(new Entry(key, Optional.empty())), false);
  }

  /** Applies this update to {@code target} in place. */
  public <V> void applyTo(Map<String, V> target, java.util.function.Function<String, V> convert) {
    if (replace) {
      target.clear();
      for (Entry e : entries) {
        e.value().ifPresent(v -> target.put(e.key(), convert.apply(v)));
      }
      return;
    }
    for (Entry e : entries) {
      if (e.value().isPresent()) {
        target.put(e.key(), convert.apply(e.value().get()));
      } else {
        target.remove(e.key());
      }
    }
  }

  /** The keys this update names (set or removed). */
  public List<String> keys() {
    List<String> keys = new ArrayList<>(entries.size());
    for (Entry e : entries) {
      keys.add(e.key());
    }
    return keys;
  }

  /** From the wire message (shared by the composite and the legacy codecs). */
  public static UpdateMap fromProto(CommonProtos.UpdateMap p) {
    List<Entry> entries = new ArrayList<>(p.getUpdateEntriesCount());
    for (CommonProtos.UpdateMapEntry e : p.getUpdateEntriesList()) {
      entries.add(new Entry(e.getKey(), e.hasValue() ? Optional.of(e.getValue()) : Optional.empty()));
    }
    return new UpdateMap(entries, p.getReplace());
  }

  /** The wire message. */
  public CommonProtos.UpdateMap toProto() {
    CommonProtos.UpdateMap.Builder b = CommonProtos.UpdateMap.newBuilder().setReplace(replace());
    for (Entry e : entries()) {
      CommonProtos.UpdateMapEntry.Builder x = CommonProtos.UpdateMapEntry.newBuilder().setKey(e.key());
      e.value().ifPresent(x::setValue);
      b.addUpdateEntries(x);
    }
    return b.build();
  }
}
