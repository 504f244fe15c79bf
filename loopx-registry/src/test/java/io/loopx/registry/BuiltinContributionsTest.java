package io.loopx.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.loopx.api.ErrorKind;
import io.loopx.api.LoopxException;
import io.loopx.api.spi.BuiltinContribution;
import io.loopx.api.spi.RegistrationContext;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.function.Supplier;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;

/** Explicit ServiceLoader selection: by id or class, in the host's order, broken ones named. */
class BuiltinContributionsTest {

  /** Public with no-arg constructors, as ServiceLoader providers must be. */
  public static final class Alpha implements BuiltinContribution {
    @Override
    public String id() {
      return "alpha";
    }

    @Override
    public void register(RegistrationContext context) {}
  }

  public static final class Beta implements BuiltinContribution {
    @Override
    public String id() {
      return "beta";
    }

    @Override
    public void register(RegistrationContext context) {}
  }

  public static final class AlsoAlpha implements BuiltinContribution {
    @Override
    public String id() {
      return "alpha";
    }

    @Override
    public void register(RegistrationContext context) {}
  }

  public static final class Broken implements BuiltinContribution {
    @Override
    public String id() {
      throw new IllegalStateException("no id today");
    }

    @Override
    public void register(RegistrationContext context) {}
  }

  record FakeProvider(
      Class<? extends BuiltinContribution> type, Supplier<BuiltinContribution> supplier)
      implements ServiceLoader.Provider<BuiltinContribution> {
    @Override
    public BuiltinContribution get() {
      return supplier.get();
    }
  }

  private static final List<String> instantiated = new ArrayList<>();

  private static FakeProvider provider(Class<? extends BuiltinContribution> type) {
    return new FakeProvider(
        type,
        () -> {
          instantiated.add(type.getSimpleName());
          try {
            return type.getConstructor().newInstance();
          } catch (ReflectiveOperationException e) {
            throw new ServiceConfigurationError("cannot instantiate " + type.getName(), e);
          }
        });
  }

  private static FakeProvider failing(Class<? extends BuiltinContribution> type) {
    return new FakeProvider(
        type,
        () -> {
          throw new ServiceConfigurationError(
              type.getName() + ": Provider could not be instantiated");
        });
  }

  private static Stream<ServiceLoader.Provider<BuiltinContribution>> stream(
      FakeProvider... providers) {
    return Stream.of(providers).map(p -> p);
  }

  @Test
  void selectsByIdInTheHostsOrderNotTheLoadersOrder() {
    List<BuiltinContribution> selected =
        BuiltinContributions.selectByIds(
            stream(provider(Alpha.class), provider(Beta.class)), List.of("beta", "alpha"));
    assertThat(selected).extracting(BuiltinContribution::id).containsExactly("beta", "alpha");
  }

  @Test
  void onlySelectedIdsAreAdmitted() {
    List<BuiltinContribution> selected =
        BuiltinContributions.selectByIds(
            stream(provider(Alpha.class), provider(Beta.class)), List.of("beta"));
    assertThat(selected).singleElement().isInstanceOf(Beta.class);
  }

  @Test
  void missingSelectedIdIsNamed() {
    LoopxException e =
        catchThrowableOfType(
            LoopxException.class,
            () ->
                BuiltinContributions.selectByIds(stream(provider(Alpha.class)), List.of("gamma")));
    assertThat(e.kind()).isEqualTo(ErrorKind.CONTRIBUTION_FAILED);
    assertThat(e.getMessage()).contains("`gamma`").contains("[alpha]");
  }

  @Test
  void brokenProviderIsNamedInsteadOfSilentlySkipped() {
    LoopxException notInstantiable =
        catchThrowableOfType(
            LoopxException.class,
            () ->
                BuiltinContributions.selectByIds(
                    stream(provider(Alpha.class), failing(Beta.class)), List.of("alpha")));
    assertThat(notInstantiable.kind()).isEqualTo(ErrorKind.CONTRIBUTION_FAILED);
    assertThat(notInstantiable.getMessage()).contains(Beta.class.getName());

    LoopxException throwingId =
        catchThrowableOfType(
            LoopxException.class,
            () -> BuiltinContributions.selectByIds(stream(provider(Broken.class)), List.of("x")));
    assertThat(throwingId.kind()).isEqualTo(ErrorKind.CONTRIBUTION_FAILED);
    assertThat(throwingId.getMessage()).contains(Broken.class.getName()).contains("no id today");
  }

  @Test
  void discoveryErrorMidStreamIsReported() {
    Iterator<ServiceLoader.Provider<BuiltinContribution>> it =
        new Iterator<>() {
          private int n;

          @Override
          public boolean hasNext() {
            if (n == 1) {
              throw new ServiceConfigurationError(
                  "io.loopx.api.spi.BuiltinContribution: Provider com.example.Gone not found");
            }
            return true;
          }

          @Override
          public ServiceLoader.Provider<BuiltinContribution> next() {
            n++;
            return provider(Alpha.class);
          }
        };
    Stream<ServiceLoader.Provider<BuiltinContribution>> s =
        StreamSupport.stream(Spliterators.spliteratorUnknownSize(it, Spliterator.ORDERED), false);
    assertThatThrownBy(() -> BuiltinContributions.selectByIds(s, List.of("alpha")))
        .isInstanceOfSatisfying(
            LoopxException.class,
            e -> assertThat(e.kind()).isEqualTo(ErrorKind.CONTRIBUTION_FAILED))
        .hasMessageContaining("com.example.Gone")
        .hasMessageContaining("after 1 provider(s)");
  }

  @Test
  void duplicateDiscoveredIdsNameBothClasses() {
    LoopxException e =
        catchThrowableOfType(
            LoopxException.class,
            () ->
                BuiltinContributions.selectByIds(
                    stream(provider(Alpha.class), provider(AlsoAlpha.class)), List.of("alpha")));
    assertThat(e.kind()).isEqualTo(ErrorKind.CATALOG_CONFLICT);
    assertThat(e.getMessage()).contains(Alpha.class.getName()).contains(AlsoAlpha.class.getName());
  }

  @Test
  void repeatedSelectionIsInvalid() {
    assertThatThrownBy(
            () ->
                BuiltinContributions.selectByIds(
                    stream(provider(Alpha.class)), List.of("alpha", "alpha")))
        .isInstanceOfSatisfying(
            LoopxException.class, e -> assertThat(e.kind()).isEqualTo(ErrorKind.INVALID_VALUE));
  }

  @Test
  void selectionByTypeInstantiatesOnlySelectedProviders() {
    instantiated.clear();
    List<BuiltinContribution> selected =
        BuiltinContributions.selectByTypes(
            stream(provider(Alpha.class), failing(Broken.class), provider(Beta.class)),
            List.of(Beta.class, Alpha.class));
    assertThat(selected).extracting(BuiltinContribution::id).containsExactly("beta", "alpha");
    assertThat(instantiated).containsExactly("Beta", "Alpha");

    assertThatThrownBy(
            () ->
                BuiltinContributions.selectByTypes(
                    stream(provider(Alpha.class)), List.of(Beta.class)))
        .isInstanceOfSatisfying(
            LoopxException.class,
            e -> assertThat(e.kind()).isEqualTo(ErrorKind.CONTRIBUTION_FAILED))
        .hasMessageContaining(Beta.class.getName());
  }

  @Test
  void realServiceLoaderWithNoProvidersFindsNothingToSelect() {
    ServiceLoader<BuiltinContribution> loader =
        ServiceLoader.load(BuiltinContribution.class, ClassLoader.getPlatformClassLoader());
    assertThat(BuiltinContributions.selectByIds(loader, List.of())).isEmpty();
    assertThatThrownBy(() -> BuiltinContributions.selectByIds(loader, List.of("loopx-core")))
        .isInstanceOfSatisfying(
            LoopxException.class,
            e -> assertThat(e.kind()).isEqualTo(ErrorKind.CONTRIBUTION_FAILED));
  }

  @Test
  void defaultLoaderOfThisModuleFindsNoProvidersHere() {
    assertThat(BuiltinContributions.selectByIds(List.of())).isEmpty();
    assertThatThrownBy(() -> BuiltinContributions.selectByIds(List.of("loopx-core")))
        .isInstanceOfSatisfying(
            LoopxException.class,
            e -> assertThat(e.kind()).isEqualTo(ErrorKind.CONTRIBUTION_FAILED))
        .hasMessageContaining("`loopx-core` was not found");
    assertThatThrownBy(() -> BuiltinContributions.selectByTypes(List.of(Alpha.class)))
        .isInstanceOfSatisfying(
            LoopxException.class,
            e -> assertThat(e.kind()).isEqualTo(ErrorKind.CONTRIBUTION_FAILED));
  }

  @Test
  void selectedContributionsAssembleInSelectionOrder() {
    BuiltinContribution a = Fixtures.capabilities("alpha", "alpha-provider", "alpha-cap");
    BuiltinContribution b = Fixtures.capabilities("beta", "beta-provider", "beta-cap");
    List<BuiltinContribution> selected =
        BuiltinContributions.selectByIds(
            stream(new FakeProvider(a.getClass(), () -> a), new FakeProvider(Beta.class, () -> b)),
            List.of("beta", "alpha"));
    CapabilityRegistry r =
        CapabilityRegistry.assembly(Fixtures.VERSION).addBuiltins(selected).seal();
    assertThat(r.capabilities(CatalogScope.PUBLIC))
        .extracting(c -> c.id().value())
        .containsExactly("beta-cap", "alpha-cap");
  }
}
