/**
 * The project generator behind {@code extension init}: it checks a starter request and, when
 * executed, writes an independently buildable standalone provider package, and reports it in a
 * scaffold receipt. It never installs, registers or enables anything.
 */
@org.jspecify.annotations.NullMarked
module io.loopx.scaffold {
  requires static transitive org.jspecify;
  requires static transitive org.apiguardian.api;
  // ExtensionId and ProtocolId appear in the receipt; Jackson tree nodes in its JSON form.
  requires transitive io.loopx.api;
  // Scaffold.init takes a runtime Mode; ScaffoldReceipt is a runtime Receipt.
  requires transitive io.loopx.runtime;

  exports io.loopx.scaffold;
}
