package dev.lancet.core.version;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.util.JsonFormat;
import dev.lancet.core.store.NotFoundException;
import dev.lancet.core.store.ObjectInfo;
import dev.lancet.core.store.ObjectStore;
import dev.lancet.format.FormatException;
import dev.lancet.format.pb.RefProtos;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/** Reads tags, which Lance stores as {@code _refs/tags/{name}.json} with camelCase keys. */
public final class Tags {
  public static final String TAGS_DIR = "_refs/tags/";

  private Tags() {}

  public static List<Tag> list(ObjectStore store) throws IOException {
    List<Tag> out = new ArrayList<>();
    for (ObjectInfo info : store.list(TAGS_DIR)) {
      String file = info.path().substring(info.path().lastIndexOf('/') + 1);
      if (file.endsWith(".json")) {
        out.add(read(store, file.substring(0, file.length() - ".json".length())));
      }
    }
    out.sort(Comparator.comparing(Tag::name));
    return out;
  }

  public static Tag get(ObjectStore store, String name) throws IOException {
    if (name.isEmpty() || name.contains("/") || name.contains("..") || name.contains("\\")) {
      throw new IllegalArgumentException("'" + name + "' is not a valid tag name");
    }
    try {
      return read(store, name);
    } catch (NotFoundException e) {
      List<String> names = new ArrayList<>();
      for (Tag t : list(store)) {
        names.add(t.name());
      }
      throw new VersionNotFoundException("tag '" + name + "' does not exist"
          + (names.isEmpty() ? " (the table has no tags)" : "; tags: " + String.join(", ", names)));
    }
  }

  private static Tag read(ObjectStore store, String name) throws IOException {
    String path = TAGS_DIR + name + ".json";
    byte[] bytes = store.get(path);
    RefProtos.TagContents.Builder b = RefProtos.TagContents.newBuilder();
    try {
      JsonFormat.parser().ignoringUnknownFields().merge(new String(bytes, StandardCharsets.UTF_8), b);
    } catch (InvalidProtocolBufferException e) {
      throw new FormatException(path, "not a valid tag file: " + e.getMessage(), e);
    }
    return new Tag(name, b.getVersion(),
        b.hasBranch() ? Optional.of(b.getBranch()) : Optional.empty(), b.getManifestSize());
  }
}
