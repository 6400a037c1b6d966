package dev.lancet.interop.readme;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lancet.core.Table;
import dev.lancet.core.commit.CommitResult;
import dev.lancet.interop.lance.LanceFixtures;
import dev.lancet.interop.lance.LanceOracle;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicInteger;
import javax.xml.parsers.DocumentBuilderFactory;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lance.Dataset;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * The README's first screen holds: its Maven coordinates are the project's own modules, the
 * kernel snippets run against a table lance-core wrote, and what it says about lance-core
 * writers that lose to a composite commit is what lance-core 7.0.0 does. (The blocks' text is
 * checked by {@link ReadmeSnippetsTest}.)
 */
class ReadmeFirstScreenTest {
  @TempDir Path tmp;

  static final Path ROOT = ReadmeSnippetsTest.repoRoot();

  @Test
  void theMavenCoordinatesAreTheProjectsOwnModules() throws Exception {
    Document pom = xml(Files.readString(ROOT.resolve("pom.xml")));
    String groupId = child(pom.getDocumentElement(), "groupId");
    String version = child(pom.getDocumentElement(), "version");
    List<String> modules = new ArrayList<>();
    NodeList ms = pom.getElementsByTagName("module");
    for (int i = 0; i < ms.getLength(); i++) {
      modules.add(ms.item(i).getTextContent().strip());
    }
    java.util.regex.Matcher block = java.util.regex.Pattern.compile(
        "<!-- snippet: maven-dependency -->\\s*\\n```xml\\n(.*?)```", java.util.regex.Pattern.DOTALL)
        .matcher(Files.readString(ROOT.resolve("README.md")));
    assertThat(block.find()).as("README has a maven-dependency block").isTrue();
    Document deps = xml("<dependencies>" + block.group(1) + "</dependencies>");
    NodeList list = deps.getElementsByTagName("dependency");
    assertThat(list.getLength()).isPositive();
    for (int i = 0; i < list.getLength(); i++) {
      Element d = (Element) list.item(i);
      assertThat(child(d, "groupId")).isEqualTo(groupId);
      assertThat(child(d, "version")).isEqualTo(version);
      assertThat(modules).contains(child(d, "artifactId"));
    }
  }

  @Test
  void addScoreColumnAddsTheColumnLanceCoreReads() {
    Path dir = LanceFixtures.stableRowIds(tmp, false); // id, name; fragments 0..3 of 100 rows
    long physicalRows;
    try (Table table = Table.open(dir.toString())) {
      physicalRows = table.latest().manifest().fragments().get(0).physicalRows();
    }
    long version;
    Schema schema = new Schema(List.of(Field.nullable("score", new ArrowType.Int(32, true))));
    try (BufferAllocator alloc = new RootAllocator();
        VectorSchemaRoot scores = VectorSchemaRoot.create(schema, alloc)) {
      IntVector score = (IntVector) scores.getVector(0);
      for (int i = 0; i < physicalRows; i++) {
        score.setSafe(i, i * 10);
      }
      scores.setRowCount((int) physicalRows);
      version = KernelCommitSnippet.run(dir, scores);
    }

    LanceOracle.TableSnapshot after = LanceOracle.snapshot(dir, version);
    assertThat(after.config()).containsEntry("etl.last_load", "2026-12-01");
    assertThat(LanceOracle.columnNames(dir, version)).containsExactly("id", "name", "score");
    // Fragment 0 holds ids 0..99 at offsets 0..99, so score = id * 10 there, null elsewhere.
    List<LanceOracle.Row> rows = LanceOracle.rows(dir, version);
    assertThat(rows).isNotEmpty().allSatisfy(r -> assertThat(r.values().get(2))
        .isEqualTo(r.id() < physicalRows ? Long.toString(r.id() * 10) : "null"));
  }

  @Test
  void commitWithReplanPlansAgainAfterAConflict() {
    Path dir = LanceFixtures.stableRowIds(tmp, false);
    AtomicInteger plans = new AtomicInteger();
    CommitResult result;
    try (Table table = Table.open(dir.toString())) {
      long stale = table.latest().version();
      table.newTransaction().step("owner", s -> s.setConfig("owner", "etl-a")).commit();
      // The first plan read the version before etl-a's commit and sets the same key: it collides.
      result = ReplanSnippet.run(table, t -> {
        int n = plans.incrementAndGet();
        var txn = t.newTransaction().step("owner", s -> s.setConfig("owner", "etl-b"));
        return n == 1 ? txn.readVersion(stale) : txn;
      });
      assertThat(table.latest().manifest().config()).containsEntry("owner", "etl-b");
    }
    assertThat(plans.get()).isEqualTo(2);
    assertThat(result.version()).isEqualTo(LanceOracle.latestVersion(dir));
  }

  @Test
  void aLanceCoreWriterThatLosesToACompositeCommitFailsAndSucceedsAfterReopening() {
    Path dir = LanceFixtures.stableRowIds(tmp, false);
    String uri = dir.toAbsolutePath().toString();
    try (BufferAllocator alloc = new RootAllocator();
        Dataset stale = Dataset.open().allocator(alloc).uri(uri).build()) {
      try (Table table = Table.open(uri)) {
        table.newTransaction().step("owner", s -> s.setConfig("owner", "lancet")).commit();
      }
      // What the README says: lance-core 7.0.0 cannot decode the composite winner it must
      // check against and reports an error, not a retryable conflict ...
      assertThatThrownBy(() -> stale.delete("id = 5"))
          .isInstanceOf(RuntimeException.class)
          .hasMessageContaining("did not contain an operation");
    }
    // ... and reopening at the latest version and retrying works.
    long before = LanceOracle.countRows(dir, LanceOracle.latestVersion(dir));
    LanceOracle.withDataset(dir, OptionalLong.empty(), ds -> {
      ds.delete("id = 5");
      return null;
    });
    assertThat(LanceOracle.countRows(dir, LanceOracle.latestVersion(dir))).isEqualTo(before - 1);
  }

  private static Document xml(String text) throws Exception {
    return DocumentBuilderFactory.newInstance().newDocumentBuilder()
        .parse(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)));
  }

  /** The text of {@code parent}'s direct child element {@code name}. */
  private static String child(Element parent, String name) {
    NodeList nodes = parent.getChildNodes();
    for (int i = 0; i < nodes.getLength(); i++) {
      if (nodes.item(i) instanceof Element e && e.getTagName().equals(name)) {
        return e.getTextContent().strip();
      }
    }
    throw new AssertionError("<" + parent.getTagName() + "> has no <" + name + ">");
  }
}
