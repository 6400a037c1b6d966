package dev.lancet.interop.probe;

import dev.lancet.interop.lance.LanceOracle;
import java.nio.file.Path;

public final class LanceCoreProbeMain {
  public static void main(String[] args) {
    String name = args[0];
    Path dir = Path.of(args[1]);
    long v = Long.parseLong(args[2]);
    StringBuilder out = new StringBuilder("PROBE " + name + ": ");
    try {
      LanceOracle.TableSnapshot snap = LanceOracle.snapshot(dir);
      out.append("open ok (rows ").append(snap.rowCount()).append(") ");
    } catch (Throwable e) {
      String t = String.valueOf(e).replace('\n', ' ');
      out.append("open FAILS: ").append(t, 0, Math.min(300, t.length()));
      System.out.println(out);
      return;
    }
    try {
      int n = LanceOracle.rows(dir, v).size();
      out.append("scan ok (").append(n).append(" rows)");
    } catch (Throwable e) {
      String t = String.valueOf(e).replace('\n', ' ');
      out.append("scan FAILS: ").append(t, 0, Math.min(300, t.length()));
    }
    System.out.println(out);
  }
}
