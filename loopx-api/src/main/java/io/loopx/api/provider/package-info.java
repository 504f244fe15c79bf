/**
 * A small helper for extension providers written in Java and launched as {@code java_main}: {@link
 * io.loopx.api.provider.ProviderMain} runs the stdin/stdout protocol of a standalone provider (SPEC
 * §7) around a {@link io.loopx.api.provider.ProviderHandler} that the extension author implements.
 *
 * <p>It needs only the JDK, Jackson's tree model and this module, so a provider jar stays small.
 * Every type and member is non-null unless marked {@code @Nullable}.
 */
package io.loopx.api.provider;
