/**
 * The caller's input, deadline and one-shot option that the public request values carry ({@code
 * RunRequest}, {@code DispatchRequest}); depends on no other runtime package.
 */
package io.loopx.runtime.internal.call;
