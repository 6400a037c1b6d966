package dev.lancet.format.layout;

import java.util.Objects;

/**
 * A manifest a writer is about to publish breaks a rule that Lancet's reader or lance-core
 * relies on. It names what is wrong ({@link #subject()}: a fragment, field, data file, base,
 * index, or the schema) so that the committer can name the action that produced it.
 */
public class InvalidManifestException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** What a violation is about. */
  public enum Kind { TABLE, SCHEMA, FIELD, FRAGMENT, BASE, INDEX }

  /**
   * The thing at fault: {@code kind} and its id (a fragment, field or base id; 0 for the schema
   * or the table); {@code key} the index uuid or a data file's path, else empty.
   */
  public record Subject(Kind kind, long id, String key) {
    public Subject {
      Objects.requireNonNull(kind, "kind");
      Objects.requireNonNull(key, "key");
    }

    public static Subject table() {
      return new Subject(Kind.TABLE, 0, "");
    }

    public static Subject schema() {
      return new Subject(Kind.SCHEMA, 0, "");
    }

    public static Subject field(int id) {
      return new Subject(Kind.FIELD, id, "");
    }

    public static Subject fragment(long id) {
      return new Subject(Kind.FRAGMENT, id, "");
    }

    /** A data or overlay file of a fragment, by path. */
    public static Subject file(long fragment, String path) {
      return new Subject(Kind.FRAGMENT, fragment, path);
    }

    public static Subject base(int id) {
      return new Subject(Kind.BASE, id, "");
    }

    public static Subject index(String uuid) {
      return new Subject(Kind.INDEX, 0, uuid);
    }
  }

  private final Subject subject;
  private final String problem;

  public InvalidManifestException(Subject subject, String problem) {
    super(problem);
    this.subject = Objects.requireNonNull(subject, "subject");
    this.problem = problem;
  }

  public Subject subject() {
    return subject;
  }

  /** What is wrong, naming the fragment, field, file, base or index. */
  public String problem() {
    return problem;
  }
}
