/**
 * The normalised extension manifest model ({@code loopx_extension_manifest_v0}): immutable records
 * that a loader produces from {@code extension.toml} and that lifecycle state snapshots. Reading a
 * manifest never loads or runs extension code.
 */
package io.loopx.api.manifest;
