/**
 * Observing LoopX (docs/observing.md): delivery of events to the host's listeners in commit order,
 * the {@code System.Logger} lines and the JFR events.
 */
package io.loopx.runtime.internal.observe;
