package dev.lancet.core.conflict.legacy;

import dev.lancet.format.codec.FragmentCodec;
import dev.lancet.format.model.Fragment;
import dev.lancet.format.pb.TableProtos;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The fragments the second phase compares: as they were at our transaction's read version, and
 * as they are in the newest version we are about to commit on top of.
 *
 * @param atReadVersion fragments of our read version's manifest, by id
 * @param current fragments of the newest manifest, by id
 * @param currentVersion the newest manifest's version (stamped into rewritten deletion files)
 */
public record FragmentStates(Map<Long, TableProtos.DataFragment> atReadVersion,
    Map<Long, TableProtos.DataFragment> current, long currentVersion) {

  public FragmentStates {
    atReadVersion = Collections.unmodifiableMap(new LinkedHashMap<>(atReadVersion));
    current = Collections.unmodifiableMap(new LinkedHashMap<>(current));
  }

  /** From two manifests' fragment lists. */
  public static FragmentStates of(Collection<Fragment> atReadVersion, Collection<Fragment> current,
      long currentVersion) {
    Map<Long, TableProtos.DataFragment> read = new LinkedHashMap<>();
    atReadVersion.forEach(f -> read.put(f.id(), FragmentCodec.toProto(f)));
    Map<Long, TableProtos.DataFragment> now = new LinkedHashMap<>();
    current.forEach(f -> now.put(f.id(), FragmentCodec.toProto(f)));
    return new FragmentStates(read, now, currentVersion);
  }

  Optional<TableProtos.DataFragment> read(long id) {
    return Optional.ofNullable(atReadVersion.get(id));
  }

  Optional<TableProtos.DataFragment> now(long id) {
    return Optional.ofNullable(current.get(id));
  }
}
