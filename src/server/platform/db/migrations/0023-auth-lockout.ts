/**
 * Devise lockable's bookkeeping on users (GitLab locks an account after too many wrong
 * passwords): `failed_attempts` counts wrong passwords since the last right one or unlock, and
 * `locked_until`, while in the future, refuses password sign-in. GitLab stores `locked_at` and
 * adds its unlock period on every check; the end of the lock is stored here instead, so the user
 * entity tells `locked` from the row alone.
 */
export default {
  version: 23,
  name: 'auth_lockout',
  sql: `
ALTER TABLE users ADD COLUMN failed_attempts INTEGER NOT NULL DEFAULT 0;
ALTER TABLE users ADD COLUMN locked_until TEXT;
`,
}
