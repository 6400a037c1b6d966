package dev.lancet.spark;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;

/** One Arrow root allocator per JVM (driver or executor); each task takes a child of it. */
public final class SparkAllocator {
  private static final BufferAllocator ROOT = new RootAllocator();

  private SparkAllocator() {}

  public static BufferAllocator child(String name) {
    return ROOT.newChildAllocator(name + " " + java.util.UUID.randomUUID(), 0, Long.MAX_VALUE);
  }
}
