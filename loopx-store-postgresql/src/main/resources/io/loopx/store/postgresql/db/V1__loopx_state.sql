-- LoopX activation state on PostgreSQL, schema version 1 (loopx-store-postgresql).
-- Applied once by PostgresActivationStore.migrate() under a transaction-scoped advisory lock,
-- which records it in loopx_schema_version. A released version is never edited: a change is a
-- new V<n>__*.sql file.

-- One row: the generation, incremented by every statement that changes an entry. A reader that
-- finds the generation it last decoded knows nothing changed; every writer locks this row
-- (SELECT ... FOR UPDATE), which serialises the compare-and-set writes of all hosts.
CREATE TABLE loopx_state_generation (
  singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
  generation bigint NOT NULL
);
INSERT INTO loopx_state_generation (singleton, generation) VALUES (true, 0);

-- One row per installed extension: its state.json entry as compact JSON text. Text, not jsonb:
-- the bytes are kept exactly as written, and every read re-validates them with the state file's
-- strict rules (duplicate keys, schema, manifests, revision hashes), so a hand-edited row is
-- refused by name instead of being normalised.
CREATE TABLE loopx_extension_state (
  id text PRIMARY KEY,
  entry text NOT NULL
);

-- Every change to the entries, by LoopX or by hand, bumps the generation and notifies the
-- listeners (NOTIFY is delivered at commit, only if the transaction commits).
CREATE FUNCTION loopx_state_changed() RETURNS trigger
  LANGUAGE plpgsql
  SET search_path FROM CURRENT
AS $$
DECLARE
  g bigint;
BEGIN
  UPDATE loopx_state_generation SET generation = generation + 1 RETURNING generation INTO g;
  PERFORM pg_notify('loopx_state', g::text);
  RETURN NULL;
END;
$$;

CREATE TRIGGER loopx_state_changed
  AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON loopx_extension_state
  FOR EACH STATEMENT EXECUTE FUNCTION loopx_state_changed();
