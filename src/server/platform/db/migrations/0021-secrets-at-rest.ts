import { isSealed, type SecretBox } from '../../auth/encryption'
import { digestToken } from '../../auth/secrets'
import type { Db } from '../connection'

/**
 * Secrets the server reads back are sealed with the instance key (auth/encryption.ts), as
 * GitLab's `encrypted_*` columns: project CI variable values, pipeline variables, project and
 * group registration tokens (found by a SHA-256 digest), error tracking client keys and the
 * instance registration token setting. Columns are renamed so no reader takes a sealed value
 * for a plain one; existing plain values are sealed in place.
 */

/** Seals every plain value of `table`.`column` (rows found by `key`); `also` names more columns to set from the plain value. */
function sealColumn(
  db: Db,
  secrets: SecretBox,
  table: string,
  key: string,
  column: string,
  also?: (plain: string) => Record<string, string>,
): void {
  const rows = db.prepare(`SELECT ${key} AS k, ${column} AS v FROM ${table}`).all() as { k: unknown; v: string }[]
  for (const { k, v } of rows) {
    if (isSealed(v)) continue
    const extra = also?.(v) ?? {}
    const sets = [`${column} = ?`, ...Object.keys(extra).map((c) => `${c} = ?`)].join(', ')
    db.prepare(`UPDATE ${table} SET ${sets} WHERE ${key} = ?`).run(secrets.seal(v), ...Object.values(extra), k)
  }
}

/** Whether the database holds any value to seal (one with none, as a new in-memory one, needs no key). */
function holdsSecrets(db: Db): boolean {
  const count = (sql: string): number => (db.prepare(sql).get() as { n: number }).n
  return (
    count('SELECT COUNT(*) AS n FROM ci_variables') +
      count('SELECT COUNT(*) AS n FROM ci_pipelines') +
      count('SELECT COUNT(*) AS n FROM ci_registration_tokens') +
      count('SELECT COUNT(*) AS n FROM error_tracking_client_keys') +
      count(`SELECT COUNT(*) AS n FROM settings WHERE key = 'runners_registration_token' AND value <> '""'`) >
    0
  )
}

export default {
  version: 21,
  name: 'secrets-at-rest',
  sql: `
ALTER TABLE ci_variables RENAME COLUMN value TO encrypted_value;
ALTER TABLE ci_pipelines RENAME COLUMN variables TO encrypted_variables;
ALTER TABLE ci_registration_tokens RENAME COLUMN token TO encrypted_token;
-- SHA-256 of the registration token: how a runner's registration finds its project or group.
ALTER TABLE ci_registration_tokens ADD COLUMN token_digest TEXT;
CREATE UNIQUE INDEX ci_registration_tokens_digest ON ci_registration_tokens(token_digest);
ALTER TABLE error_tracking_client_keys RENAME COLUMN public_key TO encrypted_public_key;
`,
  data(db: Db, secrets: SecretBox | null): void {
    if (!secrets) {
      if (holdsSecrets(db))
        throw new Error(
          'migration 21 (secrets-at-rest) needs the instance key: open the database through its data directory',
        )
      return
    }
    // Zeroes the plain values' old bytes as they are replaced, so no page keeps them.
    const secureDelete = db.pragma('secure_delete', { simple: true }) as number
    db.pragma('secure_delete = ON')
    sealColumn(db, secrets, 'ci_variables', 'id', 'encrypted_value')
    sealColumn(db, secrets, 'ci_pipelines', 'id', 'encrypted_variables')
    sealColumn(db, secrets, 'ci_registration_tokens', 'rowid', 'encrypted_token', (token) => ({
      token_digest: digestToken(token),
    }))
    sealColumn(db, secrets, 'error_tracking_client_keys', 'id', 'encrypted_public_key')
    const setting = db.prepare("SELECT value FROM settings WHERE key = 'runners_registration_token'").get() as
      { value: string } | undefined
    const token = setting ? (JSON.parse(setting.value) as unknown) : undefined
    if (typeof token === 'string' && token !== '' && !isSealed(token)) {
      db.prepare("UPDATE settings SET value = ? WHERE key = 'runners_registration_token'").run(
        JSON.stringify(secrets.seal(token)),
      )
    }
    db.pragma(`secure_delete = ${secureDelete}`)
  },
}
