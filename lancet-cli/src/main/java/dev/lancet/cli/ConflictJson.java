package dev.lancet.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lancet.core.action.Ref;
import dev.lancet.core.conflict.Collision;
import dev.lancet.core.conflict.ConfigMap;
import dev.lancet.format.deletion.DeletionVector;
import java.util.List;
import java.util.Locale;

/**
 * The typed collisions of a conflict error as JSON for scripts (the {@code conflicts} array of a
 * {@code --json} error): one object per collision with its {@code kind}, its typed fields and its
 * {@code description}. Ids and row offsets are JSON integers; a row set prints its first
 * {@value #MAX_ROWS} offsets and {@code rowCount}.
 */
final class ConflictJson {
  static final int MAX_ROWS = 1000;

  private ConflictJson() {}

  static ArrayNode of(List<Collision> conflicts) {
    ArrayNode out = CliJson.array();
    conflicts.forEach(c -> out.add(of(c)));
    return out;
  }

  static ObjectNode of(Collision c) {
    ObjectNode o = CliJson.object();
    o.put("kind", c.kind().name());
    if (c instanceof Collision.Fragment x) {
      o.set("fragment", CliJson.unsigned(x.fragment()));
    } else if (c instanceof Collision.FragmentDeletions x) {
      o.set("fragment", CliJson.unsigned(x.fragment()));
      rows(o, x.rows());
    } else if (c instanceof Collision.RowVersions x) {
      o.set("fragment", CliJson.unsigned(x.fragment()));
    } else if (c instanceof Collision.FieldData x) {
      o.set("fragment", CliJson.unsigned(x.fragment()));
      o.put("field", x.field());
    } else if (c instanceof Collision.Schema x) {
      x.field().ifPresent(f -> o.put("field", f));
      x.name().ifPresent(n -> o.put("name", n));
    } else if (c instanceof Collision.Base x) {
      x.name().ifPresent(n -> o.put("name", n));
      x.location().ifPresent(l -> o.put("location", l));
    } else if (c instanceof Collision.Config x) {
      map(o, x.map());
      x.key().ifPresent(k -> o.put("key", k));
    } else if (c instanceof Collision.UnenforcedKey x) {
      o.put("key", x.key().name().toLowerCase(Locale.ROOT));
    } else if (c instanceof Collision.Index x) {
      x.name().ifPresent(n -> o.put("name", n));
      x.segment().ifPresent(u -> o.put("segment", u.toString()));
    } else if (c instanceof Collision.KeyAssertion x) {
      ArrayNode keys = o.putArray("keyFields");
      x.keyFields().forEach(r -> keys.add(ref(r)));
      ArrayNode hashes = o.putArray("sharedKeyHashes");
      x.sharedKeyHashes().forEach(h -> hashes.add(CliJson.unsigned(h)));
    } else if (c instanceof Collision.Relocation x) {
      o.set("fragment", CliJson.unsigned(x.fragment()));
      rows(o, x.rows());
    } else if (c instanceof Collision.CellsChanged x) {
      o.set("fragment", CliJson.unsigned(x.fragment()));
      ArrayNode fields = o.putArray("fields");
      x.fields().forEach(fields::add);
      rows(o, x.rows());
    } else if (c instanceof Collision.Nullability x) {
      x.field().ifPresent(f -> o.put("field", f));
    } else if (c instanceof Collision.LegacyRule x) {
      o.put("ourOperation", x.ourOperation());
      o.put("theirOperation", x.theirOperation());
      ArrayNode fragments = o.putArray("fragments");
      x.fragments().forEach(f -> fragments.add(CliJson.unsigned(f)));
    }
    // WholeTable and FailClosed carry nothing beyond their description.
    o.put("description", c.description());
    return o;
  }

  private static void rows(ObjectNode o, DeletionVector rows) {
    ArrayNode list = o.putArray("rows");
    for (int offset : rows) {
      if (list.size() == MAX_ROWS) {
        break;
      }
      list.add(Integer.toUnsignedLong(offset));
    }
    o.put("rowCount", rows.cardinality());
  }

  private static void map(ObjectNode o, ConfigMap map) {
    if (map instanceof ConfigMap.Field f) {
      o.put("map", "field_metadata");
      o.put("field", f.id());
    } else if (map instanceof ConfigMap.TableMetadata) {
      o.put("map", "table_metadata");
    } else if (map instanceof ConfigMap.SchemaMetadata) {
      o.put("map", "schema_metadata");
    } else {
      o.put("map", "config");
    }
  }

  /** A field ref: {@code {"committed": 5}} or {@code {"local": 0}}. */
  private static ObjectNode ref(Ref r) {
    ObjectNode o = CliJson.object();
    if (r instanceof Ref.Committed c) {
      o.set("committed", CliJson.unsigned(c.id()));
    } else {
      o.put("local", Integer.toUnsignedLong(((Ref.Local) r).token()));
    }
    return o;
  }
}
