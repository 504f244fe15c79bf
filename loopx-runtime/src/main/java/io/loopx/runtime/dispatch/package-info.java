/**
 * Governed capability dispatch: resolve exactly one ready implementation, check the permission
 * contract, ask the host's {@link io.loopx.runtime.dispatch.DomainPolicy}, bind the execution
 * envelope, and run the provider (a bounded subprocess, or a trusted in-process built-in). Also the
 * activation check for extension-owned code a host calls in process.
 */
package io.loopx.runtime.dispatch;
