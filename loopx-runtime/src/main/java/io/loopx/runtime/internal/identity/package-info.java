/**
 * Runtime identity of extension launchers: content-addressed {@link
 * io.loopx.runtime.internal.identity.FileIdentity file identities}, resolution of an {@code
 * entrypoint} (path or PATH name, plus its {@code #!} interpreter) or a {@code java_main} class
 * (its {@code java} and code source) to a launch command prefix and a {@link
 * io.loopx.runtime.internal.identity.RuntimeIdentity}. A doctor proof binds a revision to these
 * identities; everything here is immutable and thread-safe, and works on any {@link
 * java.nio.file.FileSystem} with the POSIX attribute view.
 */
package io.loopx.runtime.internal.identity;
