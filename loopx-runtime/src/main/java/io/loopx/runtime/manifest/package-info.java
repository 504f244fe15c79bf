/**
 * Strict loading of extension manifests: {@code extension.toml} files and normalised manifest
 * snapshots, validated against every rule of {@code loopx_extension_manifest_v0}. Entry point:
 * {@link io.loopx.runtime.internal.manifest.ManifestLoader}. Reading a manifest never loads or runs
 * extension code.
 */
package io.loopx.runtime.manifest;
