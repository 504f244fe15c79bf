/**
 * RFC 8785 (JCS) canonical JSON, SHA-256 digests over it, and strict I-JSON parsing of UTF-8 bytes.
 * Everything here is stateless and thread-safe.
 */
package io.loopx.api.json;
