package dev.lancet.core.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LocationsTest {
  @TempDir Path tmp;

  @Test
  void localPathsAndFileUrisOfTheSameDirectoryMatch() throws Exception {
    Path root = Files.createDirectories(tmp.resolve("t"));
    String r = root.toString();
    assertThat(Locations.place(r, r)).isEqualTo(new Placement.Inside(""));
    assertThat(Locations.place(r, root.toUri().toString())).isEqualTo(new Placement.Inside(""));
    assertThat(Locations.place(root.toUri().toString(), r + "/")).isEqualTo(new Placement.Inside(""));
    assertThat(Locations.place(r, r + "/tree/feat/x")).isEqualTo(new Placement.Inside("tree/feat/x/"));
    assertThat(Locations.place(r, r + "/./tree/../tree/b")).isEqualTo(new Placement.Inside("tree/b/"));
    assertThat(Locations.place(r, tmp.resolve("t2").toString())).isEqualTo(new Placement.Outside());
    assertThat(Locations.place(r, tmp.toString())).isEqualTo(new Placement.Outside());
    assertThat(Locations.place(r, "s3://bucket/t")).isEqualTo(new Placement.Outside());
  }

  @Test
  void aSymbolicLinkToTheTableIsTheTable() throws Exception {
    Path root = Files.createDirectories(tmp.resolve("t"));
    Path link = Files.createSymbolicLink(tmp.resolve("link"), root);
    assertThat(Locations.place(root.toString(), link + "/tree/b"))
        .isEqualTo(new Placement.Inside("tree/b/"));
  }

  @Test
  void objectStoreLocations() {
    assertThat(Locations.place("s3://b/t", "s3://b/t/")).isEqualTo(new Placement.Inside(""));
    assertThat(Locations.place("S3://b/t", "s3://b/t/tree/x")).isEqualTo(new Placement.Inside("tree/x/"));
    assertThat(Locations.place("s3://b/t", "s3://b/t2")).isEqualTo(new Placement.Outside());
    assertThat(Locations.place("s3://b/t", "az://c/t")).isEqualTo(new Placement.Outside());
    assertThat(Locations.place("s3://b/t", "/local/t")).isEqualTo(new Placement.Outside());
    assertThat(Locations.place("s3://b/t", "s3a://b/t")).isInstanceOf(Placement.Undecided.class);
    assertThat(Locations.place("s3://b/my%20t", "s3://b/my t")).isInstanceOf(Placement.Undecided.class);
    assertThat(Locations.place("s3://b/t", "s3://b/t/../t")).isInstanceOf(Placement.Undecided.class);
    assertThat(Locations.place("memory://t", "memory://t")).isEqualTo(new Placement.Inside(""));
  }
}
