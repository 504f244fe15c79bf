package io.loopx.api;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class NextActionTest {
  private static final ExtensionId ID = ExtensionId.of("text-stats");

  @Test
  void theDoctorStepIsNamedInWordsNotAsACommand() {
    assertThat(NextAction.runDoctor(ID).describe())
        .isEqualTo("run the doctor of extension `text-stats` with execute")
        .doesNotContain("--");
  }

  @Test
  void anExceptionWithANextActionAppendsItToTheProblem() {
    LoopxException e =
        new LoopxException(ErrorKind.DOCTOR_STALE, "it is stale", NextAction.runDoctor(ID));

    assertThat(e.problem()).isEqualTo("it is stale");
    assertThat(e.nextAction()).contains(NextAction.runDoctor(ID));
    assertThat(e.getMessage())
        .isEqualTo("it is stale; run the doctor of extension `text-stats` with execute");
  }

  @Test
  void anExceptionWithoutANextActionHasTheMessageAsItsProblem() {
    LoopxException e = new LoopxException(ErrorKind.NOT_INSTALLED, "not here");

    assertThat(e.problem()).isEqualTo("not here");
    assertThat(e.nextAction()).isEmpty();
  }

  @Test
  void anExtensionIdConvertsFromItsProviderId() {
    assertThat(ExtensionId.of(ProviderId.of(ID))).isEqualTo(ID);
  }
}
