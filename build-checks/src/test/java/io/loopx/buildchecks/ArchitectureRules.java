package io.loopx.buildchecks;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.equivalentTo;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import com.tngtech.archunit.core.domain.JavaField;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.domain.JavaType;
import com.tngtech.archunit.core.domain.JavaTypeVariable;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import java.io.File;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.FileReader;
import java.io.FileWriter;
import java.io.RandomAccessFile;
import java.util.Collection;
import java.util.HashSet;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * The architecture rules of LoopX, as functions of the package patterns they govern so that tests
 * can prove each rule fails on a deliberately bad fixture. {@link ArchitectureTest} applies them
 * with the real packages.
 *
 * <p>Package patterns use ArchUnit syntax: {@code io.loopx.api..} is the package and its
 * subpackages.
 */
final class ArchitectureRules {

  /** Guava: allowed inside registry and runtime implementation, never in the API. */
  static final String GUAVA = "com.google.common..";

  /** night-config: runtime implementation only. */
  static final String NIGHT_CONFIG = "com.electronwill..";

  /** The OpenTelemetry API: only the optional loopx-opentelemetry module depends on it. */
  static final String OPENTELEMETRY = "io.opentelemetry..";

  /** The real LoopX packages. */
  static final String API = "io.loopx.api..";

  static final String REGISTRY = "io.loopx.registry..";
  static final String RUNTIME = "io.loopx.runtime..";
  static final String TESTKIT = "io.loopx.testkit..";
  static final String SCAFFOLD = "io.loopx.scaffold..";

  private ArchitectureRules() {}

  /**
   * No two packages of a module import each other, directly or through others: every package below
   * {@code rootPackage} ({@code io.loopx.runtime.run}, {@code io.loopx.runtime.internal.run}) is a
   * slice, and the slices form no cycle. The root package itself is not a slice: it holds a
   * module's entry point (such as {@code Loopx}), which uses every package, and the vocabulary
   * types (such as {@code Mode}) that every package uses.
   *
   * @param rootPackage an exact package name, the root of one module's packages
   */
  static ArchRule packagesAreFreeOfCycles(String rootPackage) {
    return slices()
        .matching(rootPackage + ".(**)")
        .should()
        .beFreeOfCycles()
        .because(
            "a package cycle means two packages are one responsibility, or a type is misplaced")
        .allowEmptyShould(true);
  }

  /**
   * The API depends on no other LoopX module and on neither Guava nor night-config, anywhere (not
   * only in signatures).
   */
  static ArchRule apiIsSelfContained(String api, String... otherLoopxModules) {
    String[] forbidden = concat(otherLoopxModules, GUAVA, NIGHT_CONFIG);
    return noClasses()
        .that()
        .resideInAPackage(api)
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(forbidden)
        .because(
            "loopx-api is the stable contract: it must not depend on other LoopX modules, Guava"
                + " or night-config")
        .allowEmptyShould(true);
  }

  /**
   * The registry is pure and in memory: it depends on neither runtime nor testkit and touches no
   * file, process or network API. Beyond the list in the task, {@code FileReader}/{@code
   * FileWriter}, {@code ProcessHandle} and {@code java.nio.channels} are also refused, since they
   * are file and process access under other names.
   */
  static ArchRule registryIsPureAndInMemory(String registry, String... higherLoopxModules) {
    DescribedPredicate<JavaClass> worldAccess =
        resideInAnyPackage(
                concat(higherLoopxModules, "java.nio.file..", "java.nio.channels..", "java.net.."))
            .or(equivalentTo(File.class))
            .or(equivalentTo(FileInputStream.class))
            .or(equivalentTo(FileOutputStream.class))
            .or(equivalentTo(FileReader.class))
            .or(equivalentTo(FileWriter.class))
            .or(equivalentTo(RandomAccessFile.class))
            .or(equivalentTo(ProcessBuilder.class))
            .or(equivalentTo(Process.class))
            .or(equivalentTo(ProcessHandle.class))
            .or(equivalentTo(Runtime.class));
    return noClasses()
        .that()
        .resideInAPackage(registry)
        .should()
        .dependOnClassesThat(
            worldAccess.as("belong to a higher LoopX module or to file, process or network APIs"))
        .because("loopx-registry is pure and in-memory: no file, process or network access")
        .allowEmptyShould(true);
  }

  /**
   * The runtime never depends on the modules above it, the testkit and the scaffold (dependencies
   * point down only).
   */
  static ArchRule runtimeDoesNotDependOnHigherModules(
      String runtime, String... higherLoopxModules) {
    return noClasses()
        .that()
        .resideInAPackage(runtime)
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(higherLoopxModules)
        .because("loopx-testkit and loopx-scaffold sit above loopx-runtime")
        .allowEmptyShould(true);
  }

  /**
   * The core modules depend on no telemetry library and on no module adapting one: they give hosts
   * the call observers and the trace-context hook; the optional modules (loopx-micrometer,
   * loopx-opentelemetry) adapt them.
   *
   * @param core the core modules' package patterns
   * @param telemetry the telemetry libraries' and the adapter modules' package patterns
   */
  static ArchRule coreDependsOnNoTelemetryLibrary(String[] core, String... telemetry) {
    return noClasses()
        .that()
        .resideInAnyPackage(core)
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(telemetry)
        .because("telemetry is optional: the core modules only offer the hooks the adapters use")
        .allowEmptyShould(true);
  }

  /**
   * No public signature of an API type in an exported package mentions Guava or night-config:
   * neither the type's supertypes and type parameter bounds nor the types (including generic type
   * arguments and thrown exceptions) of its public and protected fields, constructors and methods.
   *
   * @param exportedPackages exact package names (subpackages are exported separately)
   */
  static ArchRule exportedSignaturesHideInternalLibraries(Collection<String> exportedPackages) {
    Set<String> packages = Set.copyOf(exportedPackages);
    DescribedPredicate<JavaClass> inExportedPackage =
        DescribedPredicate.describe(
            "are API types of exported packages " + new TreeSet<>(packages),
            c -> packages.contains(c.getPackageName()) && isApiType(c));
    return classes()
        .that(inExportedPackage)
        .should(notMentionInternalLibrariesInPublicSignatures())
        .because("Guava and night-config are implementation details of registry and runtime")
        .allowEmptyShould(true);
  }

  private static ArchCondition<JavaClass> notMentionInternalLibrariesInPublicSignatures() {
    return new ArchCondition<>("not mention Guava or night-config types in public signatures") {
      @Override
      public void check(JavaClass type, ConditionEvents events) {
        type.getSuperclass()
            .ifPresent(s -> report(events, type, "superclass of " + type.getName(), rawTypes(s)));
        for (JavaType i : type.getInterfaces()) {
          report(events, type, "interfaces of " + type.getName(), rawTypes(i));
        }
        for (JavaTypeVariable<JavaClass> v : type.getTypeParameters()) {
          report(events, type, "type parameter bounds of " + type.getName(), rawTypes(v));
        }
        for (JavaField f : type.getFields()) {
          if (isApiMember(f.getModifiers())) {
            report(events, type, "field " + f.getFullName(), rawTypes(f.getType()));
          }
        }
        for (JavaCodeUnit u : type.getCodeUnits()) {
          if (isApiMember(u.getModifiers())) {
            Set<JavaClass> involved = new HashSet<>(u.getAllInvolvedRawTypes());
            involved.addAll(u.getExceptionTypes());
            report(events, type, u.getFullName(), involved);
          }
        }
      }
    };
  }

  private static void report(
      ConditionEvents events, JavaClass owner, String where, Collection<JavaClass> involved) {
    Set<String> leaked =
        involved.stream()
            .map(JavaClass::getBaseComponentType)
            .map(JavaClass::getName)
            .filter(ArchitectureRules::isInternalLibrary)
            .collect(Collectors.toCollection(TreeSet::new));
    if (!leaked.isEmpty()) {
      events.add(
          SimpleConditionEvent.violated(
              owner, "Public signature " + where + " mentions " + String.join(", ", leaked)));
    }
  }

  private static Set<JavaClass> rawTypes(JavaType type) {
    return type.getAllInvolvedRawTypes();
  }

  /** Returns whether a class name belongs to Guava or night-config. */
  static boolean isInternalLibrary(String className) {
    return className.startsWith("com.google.common.") || className.startsWith("com.electronwill.");
  }

  private static boolean isApiMember(Set<JavaModifier> modifiers) {
    return (modifiers.contains(JavaModifier.PUBLIC) || modifiers.contains(JavaModifier.PROTECTED))
        && !modifiers.contains(JavaModifier.SYNTHETIC)
        && !modifiers.contains(JavaModifier.BRIDGE);
  }

  /** Mirrors {@link ApiSignatures#isApiType(Class)} on ArchUnit's class model. */
  private static boolean isApiType(JavaClass c) {
    if (c.isAnonymousClass()
        || c.isLocalClass()
        || c.getModifiers().contains(JavaModifier.SYNTHETIC)) {
      return false;
    }
    if (c.isMemberClass()) {
      return isApiMember(c.getModifiers())
          && c.getEnclosingClass().map(ArchitectureRules::isApiType).orElse(false);
    }
    return c.getModifiers().contains(JavaModifier.PUBLIC);
  }

  private static String[] concat(String[] first, String... more) {
    String[] all = new String[first.length + more.length];
    System.arraycopy(first, 0, all, 0, first.length);
    System.arraycopy(more, 0, all, first.length, more.length);
    return all;
  }
}
