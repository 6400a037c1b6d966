package dev.lancet.spark;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancet.datafile.lance.LanceDatasets;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The connector as a user meets it: {@code spark-submit} (Spark's own
 * {@code org.apache.spark.deploy.SparkSubmit}, in a separate JVM) runs {@link QuickStart} from the
 * connector bundle jar, with a class path like a Spark 4.0 distribution's {@code jars/}: Spark and
 * its dependencies with Spark's own Arrow 18.1 (not the project's 18.3), plus lance-core and
 * arrow-c-data passed with {@code --jars}. No Spark distribution is on Maven Central, so the
 * distribution is this class path.
 */
class SparkSubmitIT {
  private static boolean lancetOrTest(String entry) {
    String name = new File(entry).getName();
    return entry.contains("/lancet-") || name.startsWith("arrow-") || name.startsWith("lance-")
        || name.startsWith("jar-jni") || name.startsWith("jsqlparser") || name.startsWith("protobuf-")
        || name.startsWith("junit-") || name.startsWith("assertj") || name.startsWith("jqwik")
        || name.startsWith("opentest4j") || name.startsWith("apiguardian") || name.startsWith("surefire")
        || name.startsWith("failsafe") || name.startsWith("jmh-") || name.startsWith("jopt-");
  }

  @Test
  void sparkSubmitWithTheBundleWritesReadsMergesAndStreams() throws Exception {
    String cp = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    List<String> entries = Arrays.asList(cp.split(File.pathSeparator));
    List<String> distribution = new ArrayList<>();
    for (String e : entries) {
      if (!lancetOrTest(e) && e.endsWith(".jar")) {
        distribution.add(e);
      }
    }
    try (var s = Files.list(Path.of(System.getProperty("lancet.spark.arrow")))) {
      s.forEach(p -> distribution.add(p.toString()));
    }
    List<String> jars = new ArrayList<>();
    for (String e : entries) {
      String name = new File(e).getName();
      if (name.startsWith("lance-core-") || name.startsWith("arrow-c-data-") || name.startsWith("jar-jni-")) {
        jars.add(e);
      }
    }
    assertThat(jars).hasSize(3);
    Path lake = Files.createTempDirectory("lancet-submit");
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.addAll(Arrays.asList(System.getProperty("lancet.spark.opens").trim().split("\\s+")));
    cmd.addAll(List.of("-Xmx1g", "-cp", String.join(File.pathSeparator, distribution),
        "org.apache.spark.deploy.SparkSubmit",
        "--master", "local[2]",
        "--conf", "spark.ui.enabled=false",
        "--conf", "spark.driver.host=127.0.0.1",
        "--conf", "spark.sql.catalog.lancet=dev.lancet.spark.LancetCatalog",
        "--conf", "spark.sql.catalog.lancet.root=" + lake.resolve("catalog"),
        "--jars", String.join(",", jars),
        "--class", "dev.lancet.spark.QuickStart",
        System.getProperty("lancet.spark.bundle"),
        lake.toString()));
    Path log = lake.resolve("submit.log");
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    boolean done = p.waitFor(5, TimeUnit.MINUTES);
    if (!done) {
      p.destroyForcibly();
    }
    String out = Files.readString(log);
    assertThat(done).as("spark-submit finished:\n%s", out).isTrue();
    assertThat(p.exitValue()).as("spark-submit output:\n%s", out).isZero();
    assertThat(out).contains("write+read: 1010 rows now, 1000 at version 1")
        .contains("merge: [[1,ann], [2,bobby], [3,cy]]").contains("quickstart: all steps passed");
    // lance-core (in this JVM) reads what the submitted job wrote
    Path events = lake.resolve("events.lance");
    assertThat(LanceDatasets.countRows(events, LanceDatasets.latestVersion(events))).isEqualTo(1010);
  }
}
