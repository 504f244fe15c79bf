package io.loopx.buildchecks;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Applies {@link ArchitectureRules} to the production classes of the library modules, imported from
 * their {@code target/classes} directories (test classes are excluded; importing by package from
 * the class path would scan every jar and the JDK image, which takes several seconds). {@link
 * ArchitectureRulesTest} proves each rule fails on a bad fixture.
 */
class ArchitectureTest {

  private static final String PROVIDER_CONTRACT_TEST =
      "io.loopx.testkit.contract.ProviderContractTest";

  private static JavaClasses production;

  @BeforeAll
  static void importProductionClasses() {
    production =
        new ClassFileImporter()
            .withImportOption(new ImportOption.DoNotIncludeTests())
            .importPackages(
                "io.loopx.api",
                "io.loopx.registry",
                "io.loopx.runtime",
                "io.loopx.testkit",
                "io.loopx.scaffold",
                "io.loopx.store.postgresql",
                "io.loopx.micrometer",
                "io.loopx.opentelemetry");
  }

  @Test
  void importSeesTheLibraryModulesButNoTestClasses() {
    assertThat(production.contain("io.loopx.api.ExtensionId")).isTrue();
    assertThat(production.stream().map(JavaClass::getName))
        // the contract kit's base class is production code that extension authors extend
        .noneMatch(n -> n.endsWith("Test") && !n.equals(PROVIDER_CONTRACT_TEST))
        .noneMatch(n -> n.startsWith("io.loopx.buildchecks"));
  }

  @Test
  void apiDependsOnNoOtherLoopxModuleNorGuavaNorNightConfig() {
    ArchitectureRules.apiIsSelfContained(
            ArchitectureRules.API,
            ArchitectureRules.REGISTRY,
            ArchitectureRules.RUNTIME,
            ArchitectureRules.TESTKIT,
            ArchitectureRules.SCAFFOLD)
        .check(production);
  }

  @Test
  void registryIsPureAndInMemory() {
    ArchitectureRules.registryIsPureAndInMemory(
            ArchitectureRules.REGISTRY,
            ArchitectureRules.RUNTIME,
            ArchitectureRules.TESTKIT,
            ArchitectureRules.SCAFFOLD)
        .check(production);
  }

  @Test
  void runtimeDoesNotDependOnTestkitNorScaffold() {
    ArchitectureRules.runtimeDoesNotDependOnHigherModules(
            ArchitectureRules.RUNTIME,
            ArchitectureRules.TESTKIT,
            ArchitectureRules.SCAFFOLD,
            "io.loopx.store..",
            "io.loopx.micrometer..")
        .check(production);
  }

  @Test
  void noCoreModuleDependsOnMicrometerNorOpenTelemetry() {
    ArchitectureRules.coreDependsOnNoTelemetryLibrary(
            new String[] {
              ArchitectureRules.API,
              ArchitectureRules.REGISTRY,
              ArchitectureRules.RUNTIME,
              ArchitectureRules.TESTKIT,
              ArchitectureRules.SCAFFOLD,
              "io.loopx.store.."
            },
            ArchitectureRules.OPENTELEMETRY,
            "io.loopx.opentelemetry..",
            "io.micrometer..",
            "io.loopx.micrometer..")
        .check(production);
  }

  @Test
  void exportedSignaturesMentionNeitherGuavaNorNightConfig() {
    ArchitectureRules.exportedSignaturesHideInternalLibraries(LibraryModule.allExportedPackages())
        .check(production);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "io.loopx.runtime",
        "io.loopx.registry",
        "io.loopx.testkit",
        "io.loopx.scaffold",
        "io.loopx.store.postgresql",
        "io.loopx.micrometer",
        "io.loopx.opentelemetry",
        "io.loopx.api"
      })
  void noPackageCyclesInsideAModule(String rootPackage) {
    ArchitectureRules.packagesAreFreeOfCycles(rootPackage).check(production);
  }
}
