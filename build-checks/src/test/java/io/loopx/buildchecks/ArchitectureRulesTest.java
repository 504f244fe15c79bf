package io.loopx.buildchecks;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.EvaluationResult;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Proves that each architecture rule fails on a deliberately bad fixture and stays quiet on a good
 * one, so {@link ArchitectureTest} passing means something.
 */
class ArchitectureRulesTest {

  private static final String FIXTURES = "io.loopx.buildchecks.fixtures";
  private static final String API = FIXTURES + ".api..";
  private static final String REGISTRY = FIXTURES + ".registry..";
  private static final String RUNTIME = FIXTURES + ".runtime..";
  private static final String TESTKIT = FIXTURES + ".testkit..";

  private static JavaClasses fixtures;

  @BeforeAll
  static void importFixtures() {
    fixtures = new ClassFileImporter().importPackages(FIXTURES);
  }

  @Test
  void apiRuleRefusesGuavaNightConfigAndHigherModules() {
    EvaluationResult result =
        ArchitectureRules.apiIsSelfContained(API, REGISTRY, RUNTIME, TESTKIT).evaluate(fixtures);

    List<String> details = result.getFailureReport().getDetails();
    assertThat(details)
        .anyMatch(d -> d.contains("ApiUsingGuava") && d.contains("com.google.common"))
        .anyMatch(d -> d.contains("ApiUsingNightConfig") && d.contains("com.electronwill"))
        .anyMatch(d -> d.contains("ApiUsingRuntime") && d.contains("RuntimeThing"))
        .noneMatch(d -> d.contains("CleanApi"));
  }

  @Test
  void registryRuleRefusesEachKindOfWorldAccessAndHigherModules() {
    EvaluationResult result =
        ArchitectureRules.registryIsPureAndInMemory(REGISTRY, RUNTIME, TESTKIT).evaluate(fixtures);

    List<String> details = result.getFailureReport().getDetails();
    for (String forbidden :
        List.of(
            "java.nio.file.Path",
            "java.io.File.",
            "java.io.FileInputStream",
            "java.io.FileOutputStream",
            "java.io.RandomAccessFile",
            "java.lang.ProcessBuilder",
            "java.lang.Process.",
            "java.lang.Runtime.",
            "java.net.URI",
            "RuntimeThing")) {
      assertThat(details).as(forbidden).anyMatch(d -> d.contains(forbidden));
    }
    assertThat(details).noneMatch(d -> d.contains("CleanRegistry"));
  }

  @Test
  void runtimeRuleRefusesTheTestkit() {
    EvaluationResult result =
        ArchitectureRules.runtimeDoesNotDependOnHigherModules(RUNTIME, TESTKIT).evaluate(fixtures);

    assertThat(result.getFailureReport().getDetails())
        .isNotEmpty()
        .allMatch(d -> d.contains("RuntimeUsingTestkit") && d.contains("TestkitThing"));
  }

  @Test
  void telemetryRuleRefusesACoreClassUsingOpenTelemetry() {
    EvaluationResult result =
        ArchitectureRules.coreDependsOnNoTelemetryLibrary(
                new String[] {RUNTIME}, ArchitectureRules.OPENTELEMETRY)
            .evaluate(fixtures);

    assertThat(result.getFailureReport().getDetails())
        .isNotEmpty()
        .allMatch(d -> d.contains("RuntimeUsingOpenTelemetry") && d.contains("io.opentelemetry"));
  }

  @Test
  void signatureRuleReportsEachLeakButNotInternalUse() {
    EvaluationResult result =
        ArchitectureRules.exportedSignaturesHideInternalLibraries(List.of(FIXTURES + ".exported"))
            .evaluate(fixtures);

    List<String> details = result.getFailureReport().getDetails();
    assertThat(details)
        .anyMatch(d -> d.contains("LeakyApi.CONFIG") && d.contains("nightconfig.core.Config"))
        .anyMatch(d -> d.contains("LeakyApi.names()") && d.contains("ImmutableList"))
        .anyMatch(d -> d.contains("LeakyApi.count(") && d.contains("ImmutableSet"))
        .anyMatch(d -> d.contains("LeakyApi$Nested") && d.contains("ImmutableList"))
        .noneMatch(d -> d.contains("clean()"))
        .noneMatch(d -> d.contains("hidden()"))
        .noneMatch(d -> d.contains("Internal"));
  }

  @Test
  void signatureRuleIgnoresPackagesThatAreNotExported() {
    EvaluationResult result =
        ArchitectureRules.exportedSignaturesHideInternalLibraries(List.of(FIXTURES + ".api"))
            .evaluate(fixtures);

    assertThat(result.hasViolation()).isFalse();
  }

  @Test
  void cycleRuleRefusesTwoPackagesThatImportEachOther() {
    EvaluationResult result =
        ArchitectureRules.packagesAreFreeOfCycles(FIXTURES + ".cycle").evaluate(fixtures);

    assertThat(result.hasViolation()).isTrue();
    assertThat(String.join("\n", result.getFailureReport().getDetails()))
        .contains("Cycle detected")
        .contains("CycleA")
        .contains("CycleB");
  }

  @Test
  void cycleRuleAcceptsPackagesThatDependOneWay() {
    EvaluationResult result =
        ArchitectureRules.packagesAreFreeOfCycles(FIXTURES + ".layers").evaluate(fixtures);

    assertThat(result.hasViolation()).isFalse();
  }
}
