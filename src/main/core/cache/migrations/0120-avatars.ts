import type { CacheMigration } from './index'

/*
 * Avatars as the renderer may show them (the CSP allows only `data:` images): the bytes of each
 * avatar URL an account's instance serves, fetched by core (core/avatars.ts) and kept for
 * offline use. `data` NULL records that the URL had no usable image (404, not an image, too
 * large), so it is not asked again on every list render. `used_at` orders eviction when the
 * table is over its size cap; rows follow their account out through cache_accounts.
 */
const migration: CacheMigration = {
  version: 120,
  name: 'avatars',
  sql: `
CREATE TABLE avatars (
  acct INTEGER NOT NULL REFERENCES cache_accounts(acct) ON DELETE CASCADE,
  url TEXT NOT NULL,
  content_type TEXT,
  data BLOB,
  bytes INTEGER NOT NULL,
  etag TEXT,
  fetched_at TEXT NOT NULL,
  used_at TEXT NOT NULL,
  PRIMARY KEY (acct, url)
);
CREATE INDEX avatars_used ON avatars (used_at);
`,
}

export default migration
