package dev.lancet.table;

/** The metadata columns a scan can add, named as lance-core names them. */
final class TableColumns {
  static final String ROW_ID = "_rowid";
  static final String ROW_ADDR = "_rowaddr";

  private TableColumns() {}

  /** A row's address: its fragment id in the high 32 bits, its physical offset in the low. */
  static long rowAddress(long fragmentId, long offset) {
    return (fragmentId << 32) | offset;
  }
}
