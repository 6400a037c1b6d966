package dev.lancet.interop.probe;

import dev.lancet.core.Table;
import dev.lancet.core.commit.VersionPublisher;
import dev.lancet.core.store.LocalObjectStore;
import dev.lancet.core.version.Snapshot;
import dev.lancet.format.layout.ManifestNaming;
import dev.lancet.format.model.DataFile;
import dev.lancet.format.model.Field;
import dev.lancet.format.model.Fragment;
import dev.lancet.format.model.Manifest;
import dev.lancet.format.model.Schema;
import dev.lancet.format.pb.TransactionProtos;
import dev.lancet.interop.SharedFixtures;
import dev.lancet.interop.lance.LanceOracle;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What lance-core 7.0.0 does with manifests that break the publishing rules (the evidence behind
 * {@code PublishRules}; results in docs/decisions/0015-validate-before-publishing.md). Each
 * manifest is published without Lancet's checks into a copy of a lance-core table and opened and
 * scanned by lance-core in a JVM of its own, because lance-core panics on several of them and a
 * Rust panic aborts the JVM. About a minute; run with {@code -Dlancet.lanceProbe=true}.
 */
@org.junit.jupiter.api.condition.EnabledIfSystemProperty(named = "lancet.lanceProbe", matches = "true")
class LanceCoreFailureProbe {
  @TempDir Path tmp;

  void probe(String name, String fixture, UnaryOperator<Manifest> edit) throws Exception {
    Path dir = SharedFixtures.copy(fixture, tmp.resolve(name));
    Snapshot s;
    try (Table t = Table.open(dir.toString())) {
      s = t.latest();
    }
    Manifest next = edit.apply(s.manifest()).toBuilder().version(s.version() + 1).build();
    TransactionProtos.Transaction txn = TransactionProtos.Transaction.newBuilder()
        .setReadVersion(s.version()).setUuid(UUID.randomUUID().toString())
        .setUpdateConfig(TransactionProtos.Transaction.UpdateConfig.getDefaultInstance()).build();
    new VersionPublisher(new LocalObjectStore(dir)).publish(next, s.indices(), txn, ManifestNaming.V2);
    java.util.List<String> cmd = new java.util.ArrayList<>(java.util.List.of(
        ProcessHandle.current().info().command().orElse("java"), "--add-opens=java.base/java.nio=ALL-UNNAMED",
        "-cp", System.getProperty("java.class.path"), LanceCoreProbeMain.class.getName(), name, dir.toString(),
        String.valueOf(s.version() + 1)));
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    String text = new String(p.getInputStream().readAllBytes());
    int code = p.waitFor();
    String line = text.lines().filter(l -> l.startsWith("PROBE")).findFirst().orElse("PROBE " + name + ": JVM died exit " + code + " " + text.lines().filter(l -> l.contains("panicked")).findFirst().orElse(""));
    System.out.println(line);
  }

  static Manifest fragments(Manifest m, UnaryOperator<List<Fragment>> f) {
    return m.toBuilder().fragments(f.apply(new ArrayList<>(m.fragments()))).build();
  }

  static Manifest fields(Manifest m, UnaryOperator<List<Field>> f) {
    return m.toBuilder().schema(new Schema(f.apply(new ArrayList<>(m.schema().fields())), m.schema().metadata())).build();
  }

  @Test
  void probes() throws Exception {
    
    probe("baseline", "stable-row-ids-off", m -> m);
    probe("dup-backing", "stable-row-ids-off", m -> fragments(m, l -> {
      Fragment f = l.get(0);
      List<DataFile> files = new ArrayList<>(f.files());
      files.add(files.get(0));
      l.set(0, f.toBuilder().files(files).build());
      return l;
    }));
    probe("empty-schema", "stable-row-ids-off", m -> m.toBuilder().schema(Schema.EMPTY).fragments(List.of()).build());
    probe("no-fragments", "stable-row-ids-off", m -> m.toBuilder().fragments(List.of()).build());
    probe("rows0-with-file", "stable-row-ids-off", m -> fragments(m, l -> { l.set(0, l.get(0).toBuilder().physicalRows(0).build()); return l; }));
    probe("rows-too-few", "stable-row-ids-off", m -> fragments(m, l -> { l.set(0, l.get(0).toBuilder().physicalRows(5).build()); return l; }));
    probe("rows-huge", "stable-row-ids-off", m -> fragments(m, l -> { l.set(0, l.get(0).toBuilder().physicalRows(-1).build()); return l; }));
    probe("no-files", "stable-row-ids-off", m -> fragments(m, l -> { l.set(0, l.get(0).toBuilder().files(List.of()).build()); return l; }));
    probe("no-files-0rows", "stable-row-ids-off", m -> fragments(m, l -> { l.set(0, l.get(0).toBuilder().files(List.of()).physicalRows(0).build()); return l; }));
    probe("empty-fields-file", "stable-row-ids-off", m -> fragments(m, l -> { Fragment f = l.get(0); l.set(0, f.toBuilder().files(List.of(f.files().get(0).withFields(List.of()))).build()); return l; }));
    probe("file-unknown-field", "stable-row-ids-off", m -> fragments(m, l -> { Fragment f = l.get(0); DataFile d = f.files().get(0); l.set(0, f.toBuilder().files(List.of(d.withFields(List.of(0, 77)))).build()); return l; }));
    probe("rowid-name", "stable-row-ids-off", m -> fields(m, l -> { l.set(1, l.get(1).toBuilder().name("_rowid").build()); return l; }));
    probe("rowaddr-name", "stable-row-ids-off", m -> fields(m, l -> { l.set(1, l.get(1).toBuilder().name("_rowaddr").build()); return l; }));
    probe("dup-name", "stable-row-ids-off", m -> fields(m, l -> { l.set(1, l.get(1).toBuilder().name("id").build()); return l; }));
    probe("empty-name", "stable-row-ids-off", m -> fields(m, l -> { l.set(1, l.get(1).toBuilder().name("").build()); return l; }));
    probe("dotted-name", "stable-row-ids-off", m -> fields(m, l -> { l.set(1, l.get(1).toBuilder().name("a.b").build()); return l; }));
    probe("float64", "stable-row-ids-off", m -> fields(m, l -> { l.set(1, l.get(1).toBuilder().logicalType("float64").build()); return l; }));
    probe("nonnull-unbacked", "stable-row-ids-off", m -> fields(m, l -> { l.add(Field.builder(5, "extra", "int32").nullable(false).build()); return l; }));
    probe("nullable-unbacked", "stable-row-ids-off", m -> fields(m, l -> { l.add(Field.builder(5, "extra", "int32").nullable(true).build()); return l; }));
    probe("child-under-int", "stable-row-ids-off", m -> fields(m, l -> { l.add(Field.builder(5, "kid", "int32").parentId(0).nullable(true).build()); return l; }));
    probe("empty-struct", "stable-row-ids-off", m -> fields(m, l -> { l.add(Field.builder(5, "s", "struct").nullable(true).build()); return l; }));
    probe("list-no-child", "stable-row-ids-off", m -> fields(m, l -> { l.add(Field.builder(5, "s", "list").nullable(true).build()); return l; }));
    probe("dup-id", "stable-row-ids-off", m -> fields(m, l -> { l.set(1, l.get(1).toBuilder().id(0).build()); return l; }));
    probe("unknown-parent", "stable-row-ids-off", m -> fields(m, l -> { l.add(Field.builder(5, "kid", "int32").parentId(42).nullable(true).build()); return l; }));
    probe("fsl-0", "stable-row-ids-off", m -> fields(m, l -> { l.add(Field.builder(5, "v", "fixed_size_list:float:0").nullable(true).build()); return l; }));
    probe("del-too-many", "deletions", m -> fragments(m, l -> { Fragment f = l.get(0); l.set(0, f.toBuilder().deletionFile(java.util.Optional.of(new dev.lancet.format.model.DeletionFile(f.deletionFile().get().kindValue(), f.deletionFile().get().readVersion(), f.deletionFile().get().id(), 500, java.util.OptionalInt.empty(), com.google.protobuf.UnknownFieldSet.getDefaultInstance()))).build()); return l; }));
    probe("timestamp-offset-tz", "stable-row-ids-off", m -> fields(m, l -> { l.add(Field.builder(5, "ts", "timestamp:us:+08:00").nullable(true).build()); return l; }));
    probe("timestamp-named-tz", "stable-row-ids-off", m -> fields(m, l -> { l.add(Field.builder(5, "ts", "timestamp:us:UTC").nullable(true).build()); return l; }));
    probe("fixed-size-binary-0", "stable-row-ids-off", m -> fields(m, l -> { l.add(Field.builder(5, "b", "fixed_size_binary:0").nullable(true).build()); return l; }));
    probe("decimal-precision-300", "stable-row-ids-off", m -> fields(m, l -> { l.add(Field.builder(5, "d", "decimal:128:300:2").nullable(true).build()); return l; }));
    probe("decimal128-precision-39", "stable-row-ids-off", m -> fields(m, l -> { l.add(Field.builder(5, "d", "decimal:128:39:2").nullable(true).build()); return l; }));
    probe("dotted-child", "stable-row-ids-off", m -> fields(m, l -> { l.add(Field.builder(5, "s", "struct").nullable(true).build()); l.add(Field.builder(6, "a.b", "int32").parentId(5).nullable(true).build()); return l; }));
    probe("frag-id-dup", "stable-row-ids-off", m -> fragments(m, l -> { l.set(1, l.get(1).toBuilder().id(l.get(0).id()).build()); return l; }));
  }
}
