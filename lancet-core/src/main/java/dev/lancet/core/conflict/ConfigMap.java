package dev.lancet.core.conflict;

/** One string map of the table that a {@code ConfigUpdate} edits (v2-semantics §4.1). */
public sealed interface ConfigMap {

  /** The table config. */
  record Config() implements ConfigMap {
    @Override
    public String toString() {
      return "config";
    }
  }

  /** The table metadata. */
  record TableMetadata() implements ConfigMap {
    @Override
    public String toString() {
      return "table metadata";
    }
  }

  /** The schema metadata. */
  record SchemaMetadata() implements ConfigMap {
    @Override
    public String toString() {
      return "schema metadata";
    }
  }

  /** The metadata of one committed field. */
  record Field(int id) implements ConfigMap {
    @Override
    public String toString() {
      return "metadata of field " + id;
    }
  }

  ConfigMap CONFIG = new Config();
  ConfigMap TABLE_METADATA = new TableMetadata();
  ConfigMap SCHEMA_METADATA = new SchemaMetadata();

  static ConfigMap field(int id) {
    return new Field(id);
  }
}
