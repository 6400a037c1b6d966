package dev.lancet.table;

import dev.lancet.core.store.ObjectStore;
import dev.lancet.table.spi.DataFileFormat;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;

/** What every operation of one open table shares: where it is and how to reach its files. */
record TableContext(String uri, Map<String, String> storageOptions, ObjectStore store,
    DataFileFormat dataFiles, BufferAllocator allocator) {}
