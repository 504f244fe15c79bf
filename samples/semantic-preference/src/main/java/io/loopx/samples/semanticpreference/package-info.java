/**
 * The sample extension {@code semantic-preference-local} (docs/contract/cli.md): a {@code
 * java_main} provider that implements the built-in {@code semantic-preference} capability over the
 * protocol {@code semantic_preference_provider_v0}. It verifies the execution envelope of every
 * request before it does anything else, then recalls preferences from a corpus shipped in its jar
 * by token overlap with the query. It reads nothing but its request and its own jar, and writes
 * nothing but its response.
 */
@NullMarked
package io.loopx.samples.semanticpreference;

import org.jspecify.annotations.NullMarked;
