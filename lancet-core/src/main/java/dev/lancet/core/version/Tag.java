package dev.lancet.core.version;

import java.util.Optional;

/** A named pointer to a version ({@code _refs/tags/{name}.json}). */
public record Tag(String name, long version, Optional<String> branch, long manifestSize) {}
