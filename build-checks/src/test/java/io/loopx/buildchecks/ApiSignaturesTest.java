package io.loopx.buildchecks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.loopx.buildchecks.fixtures.signatures.GenericSample;
import io.loopx.buildchecks.fixtures.signatures.SampleEnum;
import io.loopx.buildchecks.fixtures.signatures.SampleRecord;
import io.loopx.buildchecks.fixtures.signatures.Shape;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** Golden tests of the signature renderer on fixtures that cover each kind of declaration. */
class ApiSignaturesTest {

  private static final String PKG = "io.loopx.buildchecks.fixtures.signatures.";

  private static Class<?> nested(String binarySimpleName) throws ClassNotFoundException {
    return Class.forName(PKG + binarySimpleName);
  }

  private static List<String> describe(Class<?> type) {
    String prefix = ApiSignatures.canonicalName(type) + ": ";
    return ApiSignatures.describe(type).stream()
        .peek(line -> assertThat(line).startsWith(prefix))
        .map(line -> line.substring(prefix.length()))
        .collect(Collectors.toList());
  }

  @Test
  void genericClassKeepsGenericsVarargsThrowsAnnotationsAndSkipsHiddenSyntheticAndBridges() {
    assertThat(describe(GenericSample.class))
        .containsExactly(
            "public abstract class GenericSample<T extends java.lang.Comparable<? super T>>"
                + " implements java.lang.Comparable<"
                + PKG
                + "GenericSample<T>>, java.util.function.Supplier<T>",
            "public static final int LIMIT",
            "protected @org.jspecify.annotations.Nullable java.lang.String label",
            "protected <init>()",
            "public int compareTo(" + PKG + "GenericSample<T>)",
            "public static <K, V extends java.util.List<? extends K>> java.util.Map<K, V[]>"
                + " group(java.util.Map.Entry<K, ? super V>, java.lang.String...)"
                + " throws java.io.IOException",
            "protected abstract java.lang.String @org.jspecify.annotations.Nullable [] names()",
            "@java.lang.Deprecated public final int size(int[][])");
  }

  @Test
  void nestedInterfaceShowsAbstractDefaultAndStaticMethods() {
    assertThat(describe(GenericSample.Callback.class))
        .containsExactly(
            "public static interface GenericSample.Callback<R>",
            "public abstract R call(@org.jspecify.annotations.Nullable java.lang.Object)",
            "public default R callWithNothing()",
            "public static int version()");
  }

  @Test
  void innerClassConstructorShowsTheOuterInstanceAndKeepsGenerics() {
    assertThat(describe(GenericSample.Inner.class))
        .containsExactly(
            "public class GenericSample.Inner",
            "public <init>(" + PKG + "GenericSample, java.util.List<T>)");
  }

  @Test
  void recordListsComponentsAndDropsFinalOfImplicitMethods() {
    assertThat(describe(SampleRecord.class))
        .containsExactly(
            "public record SampleRecord implements java.lang.Comparable<" + PKG + "SampleRecord>",
            "component @org.jspecify.annotations.Nullable java.lang.Integer count",
            "component java.lang.String name",
            "public <init>(java.lang.String, @org.jspecify.annotations.Nullable java.lang.Integer)",
            "public int compareTo(" + PKG + "SampleRecord)",
            "public @org.jspecify.annotations.Nullable java.lang.Integer count()",
            "public boolean equals(java.lang.Object)",
            "public int hashCode()",
            "public java.lang.String name()",
            "public java.lang.String toString()");
  }

  @Test
  void enumListsConstantsInOrdinalOrderAndIgnoresConstantBodies() {
    assertThat(describe(SampleEnum.class))
        .containsExactly(
            "public enum SampleEnum",
            "enum constant ZULU",
            "enum constant ALPHA",
            "public static " + PKG + "SampleEnum valueOf(java.lang.String)",
            "public static " + PKG + "SampleEnum[] values()",
            "public java.lang.String wire()");
  }

  @Test
  void sealedHierarchyListsPermittedSubclassesAndNonSealedSubtypes() {
    assertThat(describe(Shape.class))
        .containsExactly(
            "public sealed interface Shape permits "
                + PKG
                + "Shape.Circle, "
                + PKG
                + "Shape.Open, "
                + PKG
                + "Square");
    assertThat(describe(Shape.Open.class))
        .containsExactly(
            "public static non-sealed class Shape.Open implements " + PKG + "Shape",
            "public <init>()");
    assertThat(describe(Shape.Circle.class).get(0))
        .isEqualTo("public static record Shape.Circle implements " + PKG + "Shape");
  }

  @Test
  void onlyPublicTopLevelAndAccessibleMemberTypesAreApi() throws ClassNotFoundException {
    assertThat(ApiSignatures.isApiType(GenericSample.class)).isTrue();
    assertThat(ApiSignatures.isApiType(nested("GenericSample$ForSubclasses"))).isTrue();
    assertThat(ApiSignatures.isApiType(nested("GenericSample$Hidden"))).isFalse();
    assertThat(ApiSignatures.isApiType(nested("Square"))).isFalse();
    Runnable anonymous =
        new Runnable() {
          @Override
          public void run() {}
        };
    assertThat(ApiSignatures.isApiType(anonymous.getClass())).isFalse();
  }

  @Test
  void renderingTheRealApiModuleIsDeterministicAndStartsWithHeaderAndExports() {
    LibraryModule api = LibraryModule.named("loopx-api");
    List<String> first = ApiSignatures.render(api);

    assertThat(ApiSignatures.render(api)).isEqualTo(first);
    assertThat(first.get(0)).isEqualTo(ApiSignatures.header(api));
    assertThat(first).contains("exports io.loopx.api", "exports io.loopx.api.manifest");
    assertThat(first)
        .contains(
            "io.loopx.api.LoopxException: public <init>(io.loopx.api.ErrorKind, java.lang.String,"
                + " @org.jspecify.annotations.Nullable java.lang.Throwable)");
    assertThat(first).noneMatch(line -> line.contains("io.loopx.api.Grammar"));
  }

  @Test
  void unknownModuleIsRefused() {
    assertThatThrownBy(() -> LibraryModule.named("loopx-nope"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("loopx-nope");
  }
}
