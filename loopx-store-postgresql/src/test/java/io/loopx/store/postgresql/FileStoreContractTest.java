package io.loopx.store.postgresql;

import io.loopx.api.ExtensionId;
import io.loopx.runtime.internal.state.FileActivationStore;
import io.loopx.runtime.state.ActivationStore;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/** The store contract against the file store, the reference implementation. */
class FileStoreContractTest extends ActivationStoreContract {
  @TempDir Path dir;

  Path stateFile() {
    return dir.resolve("extensions").resolve("state.json");
  }

  @Override
  ActivationStore store() {
    return FileActivationStore.at(stateFile());
  }

  @Override
  ActivationStore otherHost(Duration lockTimeout) {
    return FileActivationStore.at(stateFile()).withLockTimeout(lockTimeout);
  }

  @Override
  Object writeMarker() throws Exception {
    return Files.getLastModifiedTime(stateFile()).toString()
        + Files.getAttribute(stateFile(), "unix:ino");
  }

  @Override
  void corrupt(ExtensionId id) throws Exception {
    JsonMapper mapper = JsonMapper.builder().build();
    ObjectNode root = (ObjectNode) mapper.readTree(Files.readAllBytes(stateFile()));
    ((ObjectNode) root.get("extensions").get(id.value())).put("enabled", "yes");
    Files.write(stateFile(), mapper.writeValueAsBytes(root));
  }

  @Override
  AutoCloseable holdLock() throws Exception {
    Path lock = stateFile().resolveSibling("state.json.lock");
    Files.createDirectories(lock.getParent());
    FileChannel channel =
        FileChannel.open(lock, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
    FileLock held = channel.lock();
    return () -> {
      held.release();
      channel.close();
    };
  }
}
