/**
 * The sealed capability registry of LoopX: one catalog of built-in and extension capabilities,
 * assembled in one pass ({@link io.loopx.registry.RegistryAssembly}) and sealed into an immutable
 * generation ({@link io.loopx.registry.CapabilityRegistry}); resolution of a capability and
 * protocol to one ready provider with typed outcomes; JSON read models of the catalog; and a holder
 * that publishes generations atomically ({@link io.loopx.registry.RegistryHolder}).
 *
 * <p>Pure and in-memory: no file, process or network access, no class-path scanning, no code
 * loading. Types here are used by hosts and by the LoopX runtime; none is meant to be implemented
 * outside LoopX. Every type and member is non-null unless marked {@code @Nullable}.
 */
package io.loopx.registry;
