package dev.lancet.core.apply;

import dev.lancet.format.layout.InvalidManifestException.Subject;
import java.util.HashMap;
import java.util.Map;

/**
 * Which action (or legacy operation) produced each part of a manifest being built: a fragment,
 * a data file, a field, a base, an index segment, the schema. When the manifest breaks a rule
 * before publishing, the error names that action ("step 2 ('add column'), action 3
 * (AddDataFile)") and not only the fragment or field.
 */
public final class Provenance {
  private static final Provenance NONE = new Builder("").build();

  private final String fallback;
  private final Map<Long, String> fragments;
  private final Map<String, String> files;
  private final Map<Integer, String> fields;
  private final Map<Integer, String> bases;
  private final Map<String, String> indices;
  private final String schema;

  private Provenance(Builder b) {
    this.fallback = b.fallback;
    this.fragments = Map.copyOf(b.fragments);
    this.files = Map.copyOf(b.files);
    this.fields = Map.copyOf(b.fields);
    this.bases = Map.copyOf(b.bases);
    this.indices = Map.copyOf(b.indices);
    this.schema = b.schema;
  }

  /** No recorded origin: every part is attributed to the operation as a whole. */
  public static Provenance none() {
    return NONE;
  }

  /** Where {@code subject} came from: the most specific recorded action, else the operation. */
  public String where(Subject subject) {
    String found = switch (subject.kind()) {
      case FRAGMENT -> subject.key().isEmpty() ? fragments.get(subject.id())
          : files.getOrDefault(fileKey(subject.id(), subject.key()), fragments.get(subject.id()));
      case FIELD -> fields.getOrDefault((int) subject.id(), schema);
      case SCHEMA -> schema;
      case BASE -> bases.get((int) subject.id());
      case INDEX -> indices.get(subject.key());
      case TABLE -> null;
    };
    return found == null ? fallback : found;
  }

  static String fileKey(long fragment, String path) {
    return fragment + "/" + path;
  }

  /** Records origins while a manifest is built; the last record for a part wins. */
  public static final class Builder {
    private final String fallback;
    private final Map<Long, String> fragments = new HashMap<>();
    private final Map<String, String> files = new HashMap<>();
    private final Map<Integer, String> fields = new HashMap<>();
    private final Map<Integer, String> bases = new HashMap<>();
    private final Map<String, String> indices = new HashMap<>();
    private String schema;

    /** {@code fallback} names the operation, for parts with no recorded origin. */
    public Builder(String fallback) {
      this.fallback = fallback;
    }

    public Builder fragment(long id, String where) {
      fragments.put(id, where);
      return this;
    }

    public Builder file(long fragment, String path, String where) {
      files.put(fileKey(fragment, path), where);
      return this;
    }

    public Builder field(int id, String where) {
      fields.put(id, where);
      schema = where;
      return this;
    }

    public Builder schema(String where) {
      schema = where;
      return this;
    }

    public Builder base(int id, String where) {
      bases.put(id, where);
      return this;
    }

    public Builder index(String uuid, String where) {
      indices.put(uuid, where);
      return this;
    }

    public Provenance build() {
      return new Provenance(this);
    }
  }
}
