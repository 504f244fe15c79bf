/**
 * Helpers shared by the LoopX modules (strict UTF-8, shared failure messages). Exported only to
 * {@code io.loopx.registry} and {@code io.loopx.runtime}; not API.
 */
package io.loopx.api.internal;
