package dev.lancet.demo;

/** A commit the kernel acknowledged: the writer was told its transaction is version {@code version}. */
public record Acknowledged(String writer, String transaction, String transactionUuid, long version) {}
