package dev.lancet.cli.table;

import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.vector.BaseIntVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DateMilliVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.TimeMicroVector;
import org.apache.arrow.vector.TimeMilliVector;
import org.apache.arrow.vector.TimeNanoVector;
import org.apache.arrow.vector.TimeSecVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.complex.LargeListVector;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.util.Text;

/**
 * One cell of a scan as a plain value for the text, CSV and JSON outputs: numbers as numbers,
 * strings as strings, binary as base64, lists as lists, structs as maps, and temporal values as
 * ISO-8601 text (a timestamp with a zone at that zone's offset, without one as a local date-time;
 * dates, times of day) unless {@code rawTemporal} asks for the stored integers (days, the unit's
 * ticks since the epoch or midnight).
 */
final class Cells {
  private Cells() {}

  static Object value(FieldVector v, int row, boolean rawTemporal) {
    if (v.isNull(row)) {
      return null;
    }
    if (v instanceof TimeStampVector ts) {
      long ticks = ts.get(row);
      if (rawTemporal) {
        return ticks;
      }
      ArrowType.Timestamp type = (ArrowType.Timestamp) v.getField().getType();
      Instant at = instant(ticks, type.getUnit());
      if (type.getTimezone() == null) {
        return LocalDateTime.ofInstant(at, ZoneOffset.UTC).toString();
      }
      return DateTimeFormatter.ISO_OFFSET_DATE_TIME.format(at.atZone(zone(type.getTimezone())));
    }
    if (v instanceof DateDayVector d) {
      return rawTemporal ? d.get(row) : LocalDate.ofEpochDay(d.get(row)).toString();
    }
    if (v instanceof DateMilliVector d) {
      return rawTemporal ? d.get(row)
          : LocalDateTime.ofInstant(Instant.ofEpochMilli(d.get(row)), ZoneOffset.UTC).toString();
    }
    if (v instanceof TimeSecVector t) {
      return rawTemporal ? t.get(row) : LocalTime.ofSecondOfDay(t.get(row)).toString();
    }
    if (v instanceof TimeMilliVector t) {
      return rawTemporal ? t.get(row) : LocalTime.ofNanoOfDay(t.get(row) * 1_000_000L).toString();
    }
    if (v instanceof TimeMicroVector t) {
      return rawTemporal ? t.get(row) : LocalTime.ofNanoOfDay(t.get(row) * 1_000L).toString();
    }
    if (v instanceof TimeNanoVector t) {
      return rawTemporal ? t.get(row) : LocalTime.ofNanoOfDay(t.get(row)).toString();
    }
    if (v instanceof ListVector l) {
      return items(l.getDataVector(), l.getElementStartIndex(row), l.getElementEndIndex(row),
          rawTemporal);
    }
    if (v instanceof LargeListVector l) {
      return items(l.getDataVector(), Math.toIntExact(l.getElementStartIndex(row)),
          Math.toIntExact(l.getElementEndIndex(row)), rawTemporal);
    }
    if (v instanceof FixedSizeListVector l) {
      int n = l.getListSize();
      return items(l.getDataVector(), row * n, row * n + n, rawTemporal);
    }
    if (v instanceof StructVector s) {
      Map<String, Object> out = new LinkedHashMap<>();
      for (FieldVector child : s.getChildrenFromFields()) {
        out.put(child.getName(), value(child, row, rawTemporal));
      }
      return out;
    }
    if (v instanceof BaseIntVector && v.getField().getDictionary() != null) {
      return v.getObject(row); // an index: the scan decodes dictionaries before this
    }
    return plain(v.getObject(row));
  }

  private static List<Object> items(FieldVector data, int from, int to, boolean rawTemporal) {
    List<Object> out = new ArrayList<>(to - from);
    for (int i = from; i < to; i++) {
      out.add(value(data, i, rawTemporal));
    }
    return out;
  }

  private static Object plain(Object o) {
    if (o instanceof Text t) {
      return t.toString();
    }
    if (o instanceof byte[] b) {
      return Base64.getEncoder().encodeToString(b);
    }
    if (o instanceof java.time.Duration || o instanceof java.time.Period
        || o instanceof LocalDateTime) {
      return o.toString();
    }
    return o;
  }

  private static Instant instant(long ticks, TimeUnit unit) {
    return switch (unit) {
      case SECOND -> Instant.ofEpochSecond(ticks);
      case MILLISECOND -> Instant.ofEpochMilli(ticks);
      case MICROSECOND -> Instant.ofEpochSecond(Math.floorDiv(ticks, 1_000_000L),
          Math.floorMod(ticks, 1_000_000L) * 1_000L);
      case NANOSECOND -> Instant.ofEpochSecond(Math.floorDiv(ticks, 1_000_000_000L),
          Math.floorMod(ticks, 1_000_000_000L));
    };
  }

  /** A zone Arrow names ("UTC", "+08:00", "Europe/Berlin"); an unknown name reads as UTC. */
  private static ZoneId zone(String name) {
    try {
      return ZoneId.of(name);
    } catch (java.time.DateTimeException e) {
      return ZoneOffset.UTC;
    }
  }
}
