/**
 * The in-process service-provider interface of LoopX: what a host implements to contribute built-in
 * providers, capabilities and in-process implementations ({@link
 * io.loopx.api.spi.BuiltinContribution}, {@link io.loopx.api.spi.BuiltinProvider}), the
 * provider-bound {@link io.loopx.api.spi.RegistrationContext} that LoopX hands to each
 * contribution, and the provider descriptors that catalog read models report ({@link
 * io.loopx.api.spi.Origin}, {@link io.loopx.api.spi.ProviderState}).
 *
 * <p>In-process code is trusted code: it shares the host's process and memory. Isolation exists
 * only across the process boundary of extension providers.
 *
 * <p>Every type and member is non-null unless marked {@code @Nullable}.
 */
package io.loopx.api.spi;
