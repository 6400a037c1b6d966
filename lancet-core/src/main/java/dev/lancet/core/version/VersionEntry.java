package dev.lancet.core.version;

import dev.lancet.format.layout.ManifestNaming;

/** One version's manifest file in {@code _versions/}. */
public record VersionEntry(long version, String path, ManifestNaming naming, long sizeBytes) {}
