/**
 * The extension starter scaffold ({@code extension init ID}, docs/contract/scaffold.md): {@link
 * io.loopx.scaffold.Scaffold} validates a starter request and, when executed, writes an
 * independently buildable standalone provider package; {@link io.loopx.scaffold.ScaffoldReceipt} is
 * its receipt ({@code loopx_extension_scaffold_v0}). The scaffold never installs, registers or
 * enables anything.
 */
@NullMarked
package io.loopx.scaffold;

import org.jspecify.annotations.NullMarked;
