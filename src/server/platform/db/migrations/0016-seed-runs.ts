/**
 * Seed runs: what src/server/seed wrote into this instance (profile, seed, counts), so demo
 * content is written on a first start only, never twice. A run is recorded when it starts;
 * `finished_at` stays NULL when it was interrupted.
 */
export default {
  version: 16,
  name: 'seed_runs',
  sql: `
CREATE TABLE seed_runs (
  id INTEGER PRIMARY KEY,
  profile TEXT NOT NULL,
  seed TEXT NOT NULL,
  parameters TEXT NOT NULL DEFAULT '{}',
  counts TEXT NOT NULL DEFAULT '{}',
  duration_ms INTEGER,
  created_at TEXT NOT NULL,
  finished_at TEXT
);
`,
}
