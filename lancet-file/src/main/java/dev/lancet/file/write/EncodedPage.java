package dev.lancet.file.write;

import dev.lancet.format.pb.Encodings21Protos.PageLayout;
import java.util.List;

/** One encoded page: its buffers (written in order, each padded to 64 bytes) and layout. */
record EncodedPage(List<Bytes> buffers, PageLayout layout, long rows, long firstRow) {}
