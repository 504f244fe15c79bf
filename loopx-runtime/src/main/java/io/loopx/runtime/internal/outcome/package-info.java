/**
 * The {@code ProviderOutcome} LoopX builds, shared by one-shot calls ({@code internal.run}) and
 * warm workers ({@code internal.worker}).
 */
package io.loopx.runtime.internal.outcome;
