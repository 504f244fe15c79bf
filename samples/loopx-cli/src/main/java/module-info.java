/**
 * The sample host application {@code loopx}: a picocli command line over the public LoopX API
 * (lifecycle, managed run, catalog, recall, demo and PostgreSQL state commands). It exports
 * nothing; it only uses the exported packages of the library modules, like any other host.
 */
@org.jspecify.annotations.NullMarked
module io.loopx.samples.cli {
  requires static org.jspecify;
  requires io.loopx.runtime;
  requires io.loopx.scaffold;
  requires io.loopx.store.postgresql; // --state-jdbc-url: the activation state in PostgreSQL
  requires org.postgresql.jdbc; // its plain data source (StateDatabase)
  requires info.picocli;
  requires java.logging; // to turn the library's log lines off (LoopxCli)

  // picocli injects options into the command objects reflectively.
  opens io.loopx.samples.cli to
      info.picocli;
}
