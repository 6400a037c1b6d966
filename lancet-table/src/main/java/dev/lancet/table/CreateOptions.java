package dev.lancet.table;

import dev.lancet.table.spi.DataFileFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * How to create a table: the Lance data storage version of its files ("2.0" or "2.1", the
 * default as in lance-core 7.0.0), whether rows get stable row ids, the most rows and bytes one
 * data file (and so one fragment, which a write gives one file) holds, the storage options
 * (lance-core's keys, for object stores) and the data-file implementation.
 */
public final class CreateOptions {
  /** lance-core's defaults: 1,048,576 rows and 90 GiB per file. */
  public static final long DEFAULT_MAX_ROWS_PER_FILE = 1024 * 1024;
  public static final long DEFAULT_MAX_BYTES_PER_FILE = 90L * 1024 * 1024 * 1024;

  private final String storageVersion;
  private final boolean stableRowIds;
  private final long maxRowsPerFile;
  private final long maxBytesPerFile;
  private final Map<String, String> storageOptions;
  private final Optional<DataFileFormat> dataFiles;

  private CreateOptions(Builder b) {
    this.storageVersion = b.storageVersion;
    this.stableRowIds = b.stableRowIds;
    this.maxRowsPerFile = b.maxRowsPerFile;
    this.maxBytesPerFile = b.maxBytesPerFile;
    this.storageOptions = Map.copyOf(b.storageOptions);
    this.dataFiles = b.dataFiles;
  }

  public static CreateOptions defaults() {
    return builder().build();
  }

  public static Builder builder() {
    return new Builder();
  }

  public String storageVersion() {
    return storageVersion;
  }

  public boolean stableRowIds() {
    return stableRowIds;
  }

  public long maxRowsPerFile() {
    return maxRowsPerFile;
  }

  public long maxBytesPerFile() {
    return maxBytesPerFile;
  }

  public Map<String, String> storageOptions() {
    return storageOptions;
  }

  public Optional<DataFileFormat> dataFiles() {
    return dataFiles;
  }

  /** Builder for {@link CreateOptions}. */
  public static final class Builder {
    private String storageVersion = "2.1";
    private boolean stableRowIds;
    private long maxRowsPerFile = DEFAULT_MAX_ROWS_PER_FILE;
    private long maxBytesPerFile = DEFAULT_MAX_BYTES_PER_FILE;
    private final Map<String, String> storageOptions = new LinkedHashMap<>();
    private Optional<DataFileFormat> dataFiles = Optional.empty();

    private Builder() {}

    /** "2.0" or "2.1". */
    public Builder storageVersion(String version) {
      if (!version.equals("2.0") && !version.equals("2.1")) {
        throw new InvalidInputException("storage version " + version + " is not supported; "
            + "use 2.0 or 2.1 (what lance-core 7.0.0 reads and writes)");
      }
      this.storageVersion = version;
      return this;
    }

    public Builder stableRowIds(boolean on) {
      this.stableRowIds = on;
      return this;
    }

    public Builder maxRowsPerFile(long rows) {
      if (rows <= 0 || rows > Integer.MAX_VALUE) {
        throw new InvalidInputException("max rows per file must be between 1 and "
            + Integer.MAX_VALUE + ", not " + rows);
      }
      this.maxRowsPerFile = rows;
      return this;
    }

    public Builder maxBytesPerFile(long bytes) {
      if (bytes <= 0) {
        throw new InvalidInputException("max bytes per file must be positive, not " + bytes);
      }
      this.maxBytesPerFile = bytes;
      return this;
    }

    public Builder storageOptions(Map<String, String> options) {
      this.storageOptions.putAll(Objects.requireNonNull(options, "options"));
      return this;
    }

    public Builder storageOption(String key, String value) {
      this.storageOptions.put(key, value);
      return this;
    }

    /** The data-file implementation; by default the one {@code ServiceLoader} finds. */
    public Builder dataFiles(DataFileFormat format) {
      this.dataFiles = Optional.of(format);
      return this;
    }

    public CreateOptions build() {
      return new CreateOptions(this);
    }
  }
}
