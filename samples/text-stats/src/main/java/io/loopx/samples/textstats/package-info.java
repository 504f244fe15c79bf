/**
 * The sample standalone extension {@code loopx-text-stats} (docs/contract/samples.md): a {@code
 * java_main} provider that counts the characters, words and lines of a text. It reads nothing but
 * its request, writes nothing but its response, needs no permission and declares no capability.
 */
@NullMarked
package io.loopx.samples.textstats;

import org.jspecify.annotations.NullMarked;
