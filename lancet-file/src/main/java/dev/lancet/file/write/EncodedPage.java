package dev.lancet.file.write;

import dev.lancet.format.pb.Encodings21Protos.PageLayout;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * One encoded page: its buffers (written in order, each padded to 64 bytes) and layout. The
 * buffers may be views of the column's own buffers: write the page before the column is
 * appended to again.
 */
record EncodedPage(List<ByteBuffer> buffers, PageLayout layout, long rows, long firstRow) {}
