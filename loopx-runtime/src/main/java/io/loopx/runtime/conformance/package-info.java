/**
 * The provider conformance check ({@code loopx extension verify}, docs/contract/verify.md): runs a
 * provider package, in any language, against the provider protocol in scratch directories, never
 * touching an activation state, and reports every check with its evidence.
 */
@org.jspecify.annotations.NullMarked
package io.loopx.runtime.conformance;
