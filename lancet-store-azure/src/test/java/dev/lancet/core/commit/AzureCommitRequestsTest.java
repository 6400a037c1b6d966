package dev.lancet.core.commit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancet.core.Table;
import dev.lancet.core.TestDataFiles;
import dev.lancet.core.action.Ref;
import dev.lancet.core.store.ObjectStore;
import dev.lancet.format.model.DataFile;
import dev.lancet.store.azure.AzureObjectStore;
import dev.lancet.store.azure.AzuriteServer;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Request economy of a commit on Azure Blob, counted by Azurite (its access log): the same
 * requests as on S3 (decision 0014), with the latest version's .txn read, the new file's size
 * lookup and the .txn write sent at once, and the .txn read one Get Blob.
 */
class AzureCommitRequestsTest {
  private static final String LIST = "List Blobs";
  private static final String GET = "Get Blob";
  private static final String HEAD = "Get Blob Properties";
  private static final String PUT = "Put Blob";

  @Test
  void anAppendOnTopOfACompositeCommit() throws Exception {
    AzuriteServer server = AzuriteServer.shared();
    String container = server.newContainer("commit-requests");
    String location = "az://" + container + "/t";
    ObjectStore store = AzureObjectStore.open(location, server.storageOptions(), Map.of(), AzureObjectStore.Settings.DEFAULT);
    assertThat(store.overlapsRequests()).isTrue();
    TortureTables.seed(store, 2, 10);
    DataFile first = placed(store, "first.lance");
    DataFile second = placed(store, "second.lance");
    DataFile third = placed(store, "third.lance");
    // Version 2 by a writer in another process, then 3 on top of it, then 4 on top of our own 3.
    OverlappedCommitRequestsTest.asAnotherProcess(() -> append(location, store, first));

    Map<String, Long> before = server.requestCounts(container);
    assertThat(append(location, store, second).version()).isEqualTo(3);
    Map<String, Long> onAnother = server.requestsSince(container, before);
    before = server.requestCounts(container);
    assertThat(append(location, store, third).version()).isEqualTo(4);
    Map<String, Long> onOurs = server.requestsSince(container, before);

    System.out.println("[azure-requests] on another process's composite commit " + onAnother
        + "; on this process's " + onOurs);
    // The latest entry; its manifest; {its .txn (one Get Blob), the new file's size, our .txn};
    // our manifest with If-None-Match: *.
    assertThat(onAnother).isEqualTo(Map.of(LIST, 1L, GET, 2L, HEAD, 1L, PUT, 2L));
    // On top of this process's own commit the transaction is known, not read back.
    assertThat(onOurs).isEqualTo(Map.of(LIST, 1L, GET, 1L, HEAD, 1L, PUT, 2L));
  }

  private static DataFile placed(ObjectStore store, String name) {
    return TestDataFiles.placed(store, new DataFile(name, List.of(0), List.of(0), 2, 1, 10));
  }

  private static CommitResult append(String location, ObjectStore store, DataFile file) {
    return Table.open(location, store).newTransaction().step("append " + file.path(), s -> s.addFragment(0, 5)
        .addDataFile(Ref.local(0), file, Ref.committed(0))).commit();
  }
}
