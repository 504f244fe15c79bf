/**
 * Warm provider workers (docs/contract/worker.md): long-lived provider processes, contained like a
 * one-shot call, that answer many requests over line frames, pooled per (extension, revision,
 * runtime identity). Governance stays with the callers: every request passed the same checks as a
 * one-shot call before it reaches a pool.
 */
@org.jspecify.annotations.NullMarked
package io.loopx.runtime.internal.worker;
