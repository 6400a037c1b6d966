package dev.lancet.table;

/** A tag: a name for a version ({@code _refs/tags/{name}.json}, as lance-core reads and writes). */
public record TagInfo(String name, long version) {}
