package dev.lancet.core.commit;

import dev.lancet.core.conflict.Collision;
import java.util.List;

/**
 * A concurrent commit (the winner) changed what this transaction depends on: rebasing would
 * change its meaning, so the caller must re-read and re-plan. Retryable, not fatal. Carries
 * the winner's version and operation and what collided, as typed values ({@link #conflicts()})
 * and as sentences ({@link #collisions()}).
 */
public class ConflictingCommitException extends CommitConflictException {
  private static final long serialVersionUID = 1L;

  private final String winnerOperation;
  private final List<Collision> conflicts;

  public ConflictingCommitException(long winnerVersion, String winnerOperation, List<Collision> conflicts) {
    super(winnerVersion, "version " + winnerVersion + " (" + winnerOperation + ") was committed "
        + "concurrently and conflicts with this transaction: " + brief(sentences(conflicts))
        + ". Re-read the table and plan the change again.");
    if (conflicts.isEmpty()) {
      throw new IllegalArgumentException("a conflict names at least one collision");
    }
    this.winnerOperation = winnerOperation;
    this.conflicts = List.copyOf(conflicts);
  }

  /** A winner this commit cannot be checked against: the pair fails closed for {@code reason}. */
  public static ConflictingCommitException failClosed(long winnerVersion, String winnerOperation, String reason) {
    return new ConflictingCommitException(winnerVersion, winnerOperation, List.of(new Collision.FailClosed(reason)));
  }

  public String winnerOperation() {
    return winnerOperation;
  }

  /** What collided, as values a program can inspect (kind, fragment, field, rows, keys, ...). */
  public List<Collision> conflicts() {
    return conflicts;
  }

  /** What collided, one sentence each ({@code KIND: description}). */
  public List<String> collisions() {
    return sentences(conflicts);
  }

  /** The most collisions, and characters of one, a message spells out; conflicts() has all. */
  private static final int MESSAGE_COLLISIONS = 3;
  private static final int MESSAGE_CHARS = 300;

  /** The first few collisions, each cut short, and how many more there are. */
  static String brief(List<String> sentences) {
    List<String> shown = new java.util.ArrayList<>();
    for (String s : sentences.subList(0, Math.min(MESSAGE_COLLISIONS, sentences.size()))) {
      shown.add(s.length() <= MESSAGE_CHARS ? s : s.substring(0, MESSAGE_CHARS) + "...");
    }
    int more = sentences.size() - shown.size();
    return String.join("; ", shown) + (more > 0 ? "; and " + more + " more collision(s) "
        + "(the exception's conflicts() lists every one)" : "");
  }

  static List<String> sentences(List<Collision> conflicts) {
    return conflicts.stream().map(Collision::toString).toList();
  }
}
