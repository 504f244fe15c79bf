package io.loopx.registry;

import static org.assertj.core.api.Assertions.assertThat;

import io.loopx.api.CapabilityId;
import io.loopx.api.ProviderId;
import io.loopx.api.spi.Origin;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The open-addressing slot table finds every slot it holds, and nothing else, as it grows. */
class SlotTableTest {

  private static CapabilitySlot slot(String id) {
    return new CapabilitySlot(
        new CapabilityEntry(Fixtures.publicCapability(id), Origin.BUILTIN, ProviderId.LOOPX_CORE));
  }

  @Test
  void holdsEverySlotOnceWhileGrowingAndAfterReserving() {
    for (int reserve : new int[] {0, 5_000}) {
      SlotTable table = new SlotTable(0);
      table.ensureCapacity(reserve);
      List<CapabilitySlot> added = new ArrayList<>();
      for (int k = 0; k < 5_000; k++) {
        CapabilitySlot s = slot("cap-" + k);
        assertThat(table.putIfAbsent(s)).isNull();
        added.add(s);
      }
      assertThat(table.size()).isEqualTo(5_000);
      for (int k = 0; k < added.size(); k++) {
        // an equal id, not the same instance
        CapabilityId id = CapabilityId.of(new String("cap-" + k));
        assertThat(table.get(id)).isSameAs(added.get(k));
        assertThat(table.putIfAbsent(slot("cap-" + k))).isSameAs(added.get(k));
        assertThat(table.get(CapabilityId.of("other-" + k))).isNull();
      }
      assertThat(table.size()).isEqualTo(5_000);
    }
  }
}
