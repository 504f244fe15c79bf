package io.loopx.api.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.loopx.api.ApiRange;
import io.loopx.api.ExtensionId;
import io.loopx.api.manifest.ManifestException;
import org.junit.jupiter.api.Test;

class ApiCompatibilityTest {

  @Test
  void oneSentenceWithOrWithoutTheExtensionFirst() {
    ApiRange future = ApiRange.parse(">=2,<3");

    assertThat(future.admitsCurrent()).isFalse();
    assertThat(ApiCompatibility.detail(future))
        .isEqualTo("requires LoopX extension API >=2,<3, but this runtime provides 1");
    assertThat(ApiCompatibility.message(ExtensionId.of("future"), future))
        .isEqualTo(
            "extension `future` requires LoopX extension API >=2,<3, but this runtime provides 1");
    assertThat(ManifestException.apiIncompatible("m.toml", future).detail())
        .isEqualTo(ApiCompatibility.detail(future));
  }
}
