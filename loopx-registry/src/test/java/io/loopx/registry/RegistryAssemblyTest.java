package io.loopx.registry;

import static io.loopx.registry.Fixtures.ECHO;
import static io.loopx.registry.Fixtures.OTHER_PROTOCOL;
import static io.loopx.registry.Fixtures.PROTOCOL;
import static io.loopx.registry.Fixtures.VERSION;
import static io.loopx.registry.Fixtures.cap;
import static io.loopx.registry.Fixtures.capabilities;
import static io.loopx.registry.Fixtures.contribution;
import static io.loopx.registry.Fixtures.publicCapability;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.loopx.api.ErrorKind;
import io.loopx.api.LoopxException;
import io.loopx.api.ProviderId;
import io.loopx.api.manifest.ProvidedCapability;
import io.loopx.api.spi.BuiltinContribution;
import io.loopx.api.spi.BuiltinProvider;
import io.loopx.api.spi.RegistrationContext;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** Provider-bound registration, conflict rules, sealing and discarding of an assembly. */
class RegistryAssemblyTest {

  private static LoopxException sealFails(RegistryAssembly assembly) {
    return catchThrowableOfType(LoopxException.class, assembly::seal);
  }

  @Test
  void contextAttributesEveryWriteToItsBoundProvider() {
    CapabilityRegistry r =
        CapabilityRegistry.assembly(VERSION)
            .addBuiltin(capabilities("core", "loopx-core", "alpha"))
            .addBuiltin(
                contribution(
                    "memory",
                    "local-memory",
                    ctx -> {
                      ctx.addCapability(publicCapability("beta"));
                      ctx.addImplementation(cap("alpha"), PROTOCOL, ECHO);
                    }))
            .seal();

    assertThat(r.capability(cap("alpha")).orElseThrow().providerId())
        .isEqualTo(ProviderId.LOOPX_CORE);
    assertThat(r.capability(cap("beta")).orElseThrow().providerId())
        .isEqualTo(Fixtures.pid("local-memory"));
    assertThat(r.implementations(cap("alpha")))
        .singleElement()
        .satisfies(i -> assertThat(i.providerId()).isEqualTo(Fixtures.pid("local-memory")));
    assertThat(r.provider(Fixtures.pid("local-memory")).orElseThrow().contributionId())
        .contains("memory");
  }

  @Test
  void sameCapabilityFromAnotherProviderFailsEvenWhenEqualAndNamesBoth() {
    LoopxException e =
        sealFails(
            CapabilityRegistry.assembly(VERSION)
                .addBuiltin(capabilities("first", "provider-a", "shared"))
                .addBuiltin(capabilities("second", "provider-b", "shared")));

    assertThat(e.kind()).isEqualTo(ErrorKind.CATALOG_CONFLICT);
    assertThat(e.getMessage())
        .contains("duplicate capability `shared`")
        .contains("`provider-a`")
        .contains("`provider-b`")
        .contains("contribution `second`");
  }

  @Test
  void identicalRepeatBySameProviderIsANoOp() {
    CapabilityRegistry r =
        CapabilityRegistry.assembly(VERSION)
            .addBuiltin(
                contribution(
                    "core",
                    "loopx-core",
                    ctx -> {
                      ctx.addCapability(publicCapability("alpha"));
                      ctx.addCapability(publicCapability("alpha"));
                      ctx.addImplementation(cap("alpha"), PROTOCOL, ECHO);
                      ctx.addImplementation(cap("alpha"), PROTOCOL, ECHO);
                    }))
            .seal();

    assertThat(r.capabilities(CatalogScope.INCLUDE_INTERNAL)).hasSize(1);
    assertThat(r.implementations()).hasSize(1);
  }

  @Test
  void differentCapabilityValueForSameKeyBySameProviderFails() {
    ProvidedCapability other =
        new ProvidedCapability(
            cap("alpha"),
            io.loopx.api.KindToken.of("other_kind"),
            "Other",
            "available",
            io.loopx.api.manifest.Visibility.INTERNAL,
            "v",
            "n",
            java.util.Optional.empty(),
            java.util.Optional.empty(),
            java.util.Map.of());
    LoopxException e =
        sealFails(
            CapabilityRegistry.assembly(VERSION)
                .addBuiltin(
                    contribution(
                        "core",
                        "loopx-core",
                        ctx -> {
                          ctx.addCapability(publicCapability("alpha"));
                          ctx.addCapability(other);
                        })));

    assertThat(e.kind()).isEqualTo(ErrorKind.CATALOG_CONFLICT);
    assertThat(e.getMessage()).contains("conflicting capability `alpha`").contains("`loopx-core`");
  }

  @Test
  void implementationWithAnotherProtocolOrHandlerForSameKeyFails() {
    BuiltinProvider other = request -> request;
    for (RegistrationAction second :
        List.<RegistrationAction>of(
            ctx -> ctx.addImplementation(cap("alpha"), OTHER_PROTOCOL, ECHO),
            ctx -> ctx.addImplementation(cap("alpha"), PROTOCOL, other))) {
      LoopxException e =
          sealFails(
              CapabilityRegistry.assembly(VERSION)
                  .addBuiltin(
                      contribution(
                          "core",
                          "loopx-core",
                          ctx -> {
                            ctx.addCapability(publicCapability("alpha"));
                            ctx.addImplementation(cap("alpha"), PROTOCOL, ECHO);
                            second.apply(ctx);
                          })));
      assertThat(e.kind()).isEqualTo(ErrorKind.CATALOG_CONFLICT);
      assertThat(e.getMessage())
          .contains("duplicate implementation of capability `alpha`")
          .contains("`loopx-core`");
    }
  }

  @Test
  void implementationRegisteredBeforeItsCapabilityKeepsEveryRuleAndTheCatalogOrder() {
    // "other" implements alpha before "core" registers it, and gamma before it registers gamma.
    RegistryAssembly assembly =
        CapabilityRegistry.assembly(VERSION)
            .addBuiltin(
                contribution(
                    "other",
                    "other-core",
                    ctx -> {
                      ctx.addImplementation(cap("alpha"), PROTOCOL, ECHO);
                      ctx.addImplementation(cap("gamma"), PROTOCOL, ECHO);
                      ctx.addImplementation(cap("alpha"), PROTOCOL, ECHO); // identical: no-op
                      ctx.addCapability(publicCapability("gamma"));
                    }))
            .addBuiltin(
                contribution(
                    "core",
                    "loopx-core",
                    ctx -> {
                      ctx.addImplementation(cap("alpha"), PROTOCOL, ECHO);
                      ctx.addCapability(publicCapability("alpha"));
                    }));
    CapabilityRegistry r = assembly.seal();
    assertThat(r.implementations(cap("alpha")))
        .extracting(ImplementationEntry::providerId)
        .containsExactly(Fixtures.pid("other-core"), ProviderId.LOOPX_CORE);
    assertThat(r.implementations())
        .extracting(i -> i.providerId().value() + "/" + i.capabilityId().value())
        .containsExactly("other-core/alpha", "other-core/gamma", "loopx-core/alpha");

    LoopxException changed =
        sealFails(
            CapabilityRegistry.assembly(VERSION)
                .addBuiltin(
                    contribution(
                        "core",
                        "loopx-core",
                        ctx -> {
                          ctx.addImplementation(cap("alpha"), PROTOCOL, ECHO);
                          ctx.addCapability(publicCapability("alpha"));
                          ctx.addImplementation(cap("alpha"), OTHER_PROTOCOL, ECHO);
                        })));
    assertThat(changed.getMessage())
        .isEqualTo(
            "duplicate implementation of capability `alpha`: claimed by built-in provider"
                + " `loopx-core` (contribution `core`) and by the same provider with protocol"
                + " `other_protocol_v1` instead of `semantic_preference_provider_v0` (while"
                + " registering built-in contribution `core`)");

    LoopxException unknown =
        sealFails(
            CapabilityRegistry.assembly(VERSION)
                .addBuiltin(
                    contribution(
                        "core",
                        "loopx-core",
                        ctx -> {
                          ctx.addImplementation(cap("nowhere"), PROTOCOL, ECHO);
                          ctx.addCapability(publicCapability("alpha"));
                        })));
    assertThat(unknown.getMessage())
        .isEqualTo(
            "built-in provider `loopx-core` (contribution `core`) implements unknown capability"
                + " `nowhere`");
  }

  @Test
  void twoProvidersMayImplementTheSameCapability() {
    CapabilityRegistry r =
        CapabilityRegistry.assembly(VERSION)
            .addBuiltin(
                contribution(
                    "core",
                    "loopx-core",
                    ctx -> {
                      ctx.addCapability(publicCapability("alpha"));
                      ctx.addImplementation(cap("alpha"), PROTOCOL, ECHO);
                    }))
            .addBuiltin(
                contribution(
                    "other",
                    "other-core",
                    ctx -> ctx.addImplementation(cap("alpha"), PROTOCOL, ECHO)))
            .seal();

    assertThat(r.implementations(cap("alpha")))
        .extracting(ImplementationEntry::providerId)
        .containsExactly(ProviderId.LOOPX_CORE, Fixtures.pid("other-core"));
  }

  @Test
  void duplicateContributionIdOrProviderIdFailsNamingBoth() {
    LoopxException sameId =
        sealFails(
            CapabilityRegistry.assembly(VERSION)
                .addBuiltin(capabilities("core", "provider-a"))
                .addBuiltin(capabilities("core", "provider-b")));
    assertThat(sameId.kind()).isEqualTo(ErrorKind.CATALOG_CONFLICT);
    assertThat(sameId.getMessage()).contains("duplicate built-in contribution id `core`");

    LoopxException sameProvider =
        sealFails(
            CapabilityRegistry.assembly(VERSION)
                .addBuiltin(capabilities("one", "loopx-core"))
                .addBuiltin(capabilities("two", "loopx-core")));
    assertThat(sameProvider.kind()).isEqualTo(ErrorKind.CATALOG_CONFLICT);
    assertThat(sameProvider.getMessage())
        .contains("duplicate provider `loopx-core`")
        .contains("contribution `one`")
        .contains("contribution `two`");
  }

  @Test
  void writesThroughAContextKeptPastSealFail() {
    AtomicReference<RegistrationContext> kept = new AtomicReference<>();
    RegistryAssembly assembly =
        CapabilityRegistry.assembly(VERSION)
            .addBuiltin(
                contribution(
                    "core",
                    "loopx-core",
                    ctx -> {
                      kept.set(ctx);
                      ctx.addCapability(publicCapability("alpha"));
                    }));
    CapabilityRegistry registry = assembly.seal();

    assertThatThrownBy(() -> kept.get().addCapability(publicCapability("late")))
        .isInstanceOfSatisfying(
            LoopxException.class, e -> assertThat(e.kind()).isEqualTo(ErrorKind.REGISTRY_SEALED))
        .hasMessageContaining("`loopx-core`")
        .hasMessageContaining("sealed");
    assertThatThrownBy(() -> kept.get().addImplementation(cap("alpha"), PROTOCOL, ECHO))
        .isInstanceOfSatisfying(
            LoopxException.class, e -> assertThat(e.kind()).isEqualTo(ErrorKind.REGISTRY_SEALED));
    assertThat(registry.capabilities(CatalogScope.INCLUDE_INTERNAL)).hasSize(1);
    assertThat(registry.capability(cap("late"))).isEmpty();
  }

  @Test
  void everyAssemblyWriteAfterSealFails() {
    RegistryAssembly assembly = CapabilityRegistry.assembly(VERSION);
    assembly.seal();

    List<Runnable> writes =
        List.of(
            () -> assembly.addBuiltin(capabilities("x", "loopx-core")),
            () -> assembly.addBuiltins(List.of(capabilities("x", "loopx-core"))),
            () -> assembly.declare(Fixtures.manifest("ext").provides("gamma").build()),
            () -> assembly.install(Fixtures.ready(Fixtures.manifest("ext").build())),
            assembly::seal);
    for (Runnable write : writes) {
      assertThatThrownBy(write::run)
          .isInstanceOfSatisfying(
              LoopxException.class, e -> assertThat(e.kind()).isEqualTo(ErrorKind.REGISTRY_SEALED));
    }
  }

  @Test
  void contextClosesWhenItsRegisterCallReturnsAndMisuseFailsTheAssembly() {
    AtomicReference<RegistrationContext> first = new AtomicReference<>();
    RegistryAssembly assembly =
        CapabilityRegistry.assembly(VERSION)
            .addBuiltin(contribution("first", "provider-a", first::set))
            .addBuiltin(
                contribution(
                    "second",
                    "provider-b",
                    ctx -> {
                      try {
                        first.get().addCapability(publicCapability("spoofed"));
                      } catch (LoopxException swallowed) {
                        // a broken contribution hides the failure; the assembly must not
                      }
                    }));

    LoopxException e = sealFails(assembly);
    assertThat(e.kind()).isEqualTo(ErrorKind.CONTRIBUTION_FAILED);
    assertThat(e.getMessage()).contains("`second`").contains("closed");
  }

  @Test
  void throwingContributionLeavesNoTraceAndIsNamed() {
    AtomicReference<RegistrationContext> earlier = new AtomicReference<>();
    List<String> calls = new ArrayList<>();
    RegistryAssembly assembly =
        CapabilityRegistry.assembly(VERSION)
            .addBuiltin(
                contribution(
                    "good",
                    "loopx-core",
                    ctx -> {
                      earlier.set(ctx);
                      ctx.addCapability(publicCapability("alpha"));
                      calls.add("good");
                    }))
            .addBuiltin(
                contribution(
                    "broken",
                    "broken-provider",
                    ctx -> {
                      ctx.addCapability(publicCapability("half"));
                      throw new IllegalStateException("boom");
                    }))
            .addBuiltin(contribution("never", "never-provider", ctx -> calls.add("never")));

    LoopxException e = sealFails(assembly);

    assertThat(e.kind()).isEqualTo(ErrorKind.CONTRIBUTION_FAILED);
    assertThat(e.getMessage()).contains("`broken`").contains("boom");
    assertThat(e.getCause()).isInstanceOf(IllegalStateException.class);
    assertThat(calls).containsExactly("good");
    // the discarded assembly publishes nothing and accepts nothing more
    assertThatThrownBy(assembly::seal)
        .isInstanceOfSatisfying(
            LoopxException.class, x -> assertThat(x.kind()).isEqualTo(ErrorKind.REGISTRY_SEALED))
        .hasMessageContaining("discarded");
    assertThatThrownBy(() -> earlier.get().addCapability(publicCapability("late")))
        .isInstanceOfSatisfying(
            LoopxException.class, x -> assertThat(x.kind()).isEqualTo(ErrorKind.REGISTRY_SEALED));
  }

  @Test
  void checkedAndErrorThrowablesFromRegisterAreContributionFailures() {
    BuiltinContribution linkage =
        contribution(
            "linkage",
            "loopx-core",
            ctx -> {
              throw new NoClassDefFoundError("com/example/Missing");
            });
    LoopxException e = sealFails(CapabilityRegistry.assembly(VERSION).addBuiltin(linkage));
    assertThat(e.kind()).isEqualTo(ErrorKind.CONTRIBUTION_FAILED);
    assertThat(e.getMessage()).contains("`linkage`").contains("com/example/Missing");
  }

  @Test
  void swallowedConflictStillFailsTheAssembly() {
    LoopxException e =
        sealFails(
            CapabilityRegistry.assembly(VERSION)
                .addBuiltin(capabilities("first", "provider-a", "shared"))
                .addBuiltin(
                    contribution(
                        "second",
                        "provider-b",
                        ctx -> {
                          try {
                            ctx.addCapability(publicCapability("shared"));
                          } catch (LoopxException swallowed) {
                            // ignored on purpose
                          }
                          ctx.addCapability(publicCapability("other"));
                        })));

    assertThat(e.kind()).isEqualTo(ErrorKind.CATALOG_CONFLICT);
    assertThat(e.getMessage()).contains("`provider-a`").contains("`provider-b`");
  }

  @Test
  void brokenIdOrProviderIdIsAContributionFailureNamingTheClass() {
    BuiltinContribution badId =
        new BuiltinContribution() {
          @Override
          public String id() {
            return "Not_Kebab";
          }

          @Override
          public void register(RegistrationContext context) {}
        };
    LoopxException e1 = sealFails(CapabilityRegistry.assembly(VERSION).addBuiltin(badId));
    assertThat(e1.kind()).isEqualTo(ErrorKind.CONTRIBUTION_FAILED);
    assertThat(e1.getMessage()).contains("Not_Kebab").contains(badId.getClass().getName());

    BuiltinContribution throwingProvider =
        new BuiltinContribution() {
          @Override
          public String id() {
            return "throwing";
          }

          @Override
          public ProviderId providerId() {
            return ProviderId.of("Bad Provider");
          }

          @Override
          public void register(RegistrationContext context) {}
        };
    LoopxException e2 =
        sealFails(CapabilityRegistry.assembly(VERSION).addBuiltin(throwingProvider));
    assertThat(e2.kind()).isEqualTo(ErrorKind.CONTRIBUTION_FAILED);
    assertThat(e2.getMessage()).contains("`throwing`").contains("Bad Provider");
  }

  @Test
  void contributionsRunOnlyAtSealAndOnlyOnce() {
    List<String> calls = new ArrayList<>();
    RegistryAssembly assembly =
        CapabilityRegistry.assembly(VERSION)
            .addBuiltin(contribution("core", "loopx-core", ctx -> calls.add("register")));
    assertThat(calls).isEmpty();
    assembly.seal();
    assertThat(calls).containsExactly("register");
  }

  @Test
  void contributionCannotAddToItsOwnAssemblyWhileSealing() {
    RegistryAssembly assembly = CapabilityRegistry.assembly(VERSION);
    assembly.addBuiltin(
        contribution(
            "core", "loopx-core", ctx -> assembly.addBuiltin(capabilities("x", "x-provider"))));
    LoopxException e = sealFails(assembly);
    assertThat(e.kind()).isEqualTo(ErrorKind.CONTRIBUTION_FAILED);
    assertThat(e.getCause())
        .isInstanceOfSatisfying(
            LoopxException.class, c -> assertThat(c.kind()).isEqualTo(ErrorKind.REGISTRY_SEALED));
  }

  @Test
  void blankLibraryVersionIsRejected() {
    assertThatThrownBy(() -> CapabilityRegistry.assembly(" "))
        .isInstanceOfSatisfying(
            LoopxException.class, e -> assertThat(e.kind()).isEqualTo(ErrorKind.INVALID_VALUE));
  }

  @FunctionalInterface
  interface RegistrationAction {
    void apply(RegistrationContext ctx);
  }
}
