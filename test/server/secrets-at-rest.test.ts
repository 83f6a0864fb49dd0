import Database from 'better-sqlite3'
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { buildApp } from '../../src/server/app'
import { migrate } from '../../src/server/platform/db/connection'
import { migrations } from '../../src/server/platform/db/migrations/index'
import { commitFiles, createProject, instanceToken } from '../helpers/ci'
import { makeServer, ROOT_TOKEN, type TestServer } from '../helpers/server'

const DB_FILE = 'burrow.sqlite3'

/** Every byte the database keeps on disk: the file and, if present, its WAL. */
function databaseBytes(dataDir: string): Buffer {
  const file = join(dataDir, DB_FILE)
  return Buffer.concat([file, `${file}-wal`].filter((f) => existsSync(f)).map((f) => readFileSync(f)))
}

function modeOf(path: string): number {
  return statSync(path).mode & 0o777
}

const opened: TestServer[] = []
afterEach(async () => {
  for (const s of opened.splice(0)) await s.close()
})

async function server(dataDir?: string): Promise<TestServer> {
  if (!dataDir) {
    const s = await makeServer()
    opened.push(s)
    return s
  }
  const app = await buildApp({ dataDir, rootToken: ROOT_TOKEN, externalUrl: 'http://burrow.test' })
  const s: TestServer = {
    app,
    dataDir,
    request: (token, options) =>
      app.inject({ ...options, headers: { ...(options.headers ?? {}), ...(token ? { 'private-token': token } : {}) } }),
    async close() {
      await app.close()
    },
  }
  opened.push(s)
  return s
}

describe('secrets at rest', () => {
  it('seals CI variables, pipeline variables, registration tokens and client keys; the API reads them as before', async () => {
    const s = await server()
    const pid = await createProject(s, ROOT_TOKEN)
    await commitFiles(s, ROOT_TOKEN, pid, 'main', { '.gitlab-ci.yml': 'test:\n  script: echo hi\n' })
    const variable = await s.request(ROOT_TOKEN, {
      method: 'POST',
      url: `/api/v4/projects/${pid}/variables`,
      payload: { key: 'DEPLOY_KEY', value: 'variable-secret-4f1d2c' },
    })
    expect(variable.statusCode).toBe(201)
    const pipeline = await s.request(ROOT_TOKEN, {
      method: 'POST',
      url: `/api/v4/projects/${pid}/pipeline`,
      payload: { ref: 'main', variables: [{ key: 'ONE_OFF', value: 'pipeline-secret-9a7b3e' }] },
    })
    expect(pipeline.statusCode).toBe(201)
    const projectToken = (await s.request(ROOT_TOKEN, { method: 'GET', url: `/api/v4/projects/${pid}` })).json()
      .runners_token as string
    const instance = await instanceToken(s)
    const clientKey = (
      await s.request(ROOT_TOKEN, { method: 'POST', url: `/api/v4/projects/${pid}/error_tracking/client_keys` })
    ).json().public_key as string
    expect([projectToken, instance, clientKey].every((t) => typeof t === 'string' && t.length >= 16)).toBe(true)

    // The API answers with the plain values.
    expect(
      (await s.request(ROOT_TOKEN, { method: 'GET', url: `/api/v4/projects/${pid}/variables/DEPLOY_KEY` })).json()
        .value,
    ).toBe('variable-secret-4f1d2c')
    expect(
      (
        await s.request(ROOT_TOKEN, {
          method: 'GET',
          url: `/api/v4/projects/${pid}/pipelines/${pipeline.json().id}/variables`,
        })
      ).json(),
    ).toEqual([{ variable_type: 'env_var', key: 'ONE_OFF', value: 'pipeline-secret-9a7b3e' }])
    expect((await s.request(ROOT_TOKEN, { method: 'GET', url: `/api/v4/projects/${pid}` })).json().runners_token).toBe(
      projectToken,
    )
    expect(await instanceToken(s)).toBe(instance)
    expect(
      (
        await s.request(ROOT_TOKEN, { method: 'GET', url: `/api/v4/projects/${pid}/error_tracking/client_keys` })
      ).json()[0].public_key,
    ).toBe(clientKey)
    for (const token of [projectToken, instance]) {
      expect(
        (await s.request(null, { method: 'POST', url: '/api/v4/runners', payload: { token, description: 'r' } }))
          .statusCode,
      ).toBe(201)
    }
    expect(
      (await s.request(null, { method: 'POST', url: '/api/v4/runners', payload: { token: 'GR1348941-not-a-token' } }))
        .statusCode,
    ).toBe(403)

    const dataDir = s.dataDir
    const bytes = databaseBytes(dataDir)
    for (const secret of ['variable-secret-4f1d2c', 'pipeline-secret-9a7b3e', projectToken, instance, clientKey])
      expect(bytes.includes(secret), secret).toBe(false)
    expect(bytes.includes('DEPLOY_KEY')).toBe(true)
  })

  it('closes the data directory, the database files, repositories and the key to other accounts, also when they were open before', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'burrow-modes-'))
    try {
      const first = await server(dataDir)
      await createProject(first, ROOT_TOKEN)
      await instanceToken(first)
      const paths = {
        dir: [dataDir, join(dataDir, 'repositories'), join(dataDir, 'secrets')],
        file: [
          join(dataDir, DB_FILE),
          join(dataDir, `${DB_FILE}-wal`),
          join(dataDir, `${DB_FILE}-shm`),
          join(dataDir, 'secrets', 'db_key'),
        ],
      }
      for (const dir of paths.dir) expect([dir, modeOf(dir)]).toEqual([dir, 0o700])
      for (const file of paths.file) expect([file, modeOf(file)]).toEqual([file, 0o600])
      await first.close()
      opened.splice(0)
      // As an older server left them.
      for (const dir of paths.dir) chmodSync(dir, 0o755)
      for (const file of paths.file.filter((f) => existsSync(f))) chmodSync(file, 0o644)
      await server(dataDir)
      for (const dir of paths.dir) expect([dir, modeOf(dir)]).toEqual([dir, 0o700])
      for (const file of paths.file.filter((f) => existsSync(f))) expect([file, modeOf(file)]).toEqual([file, 0o600])
    } finally {
      rmSync(dataDir, { recursive: true, force: true })
    }
  })

  describe('migration 0021', () => {
    const t = '2026-01-01T00:00:00.000Z'
    const plain = {
      variable: 'legacy-variable-77c1',
      pipeline: 'legacy-pipeline-5e2a',
      project: 'GR1348941legacyProjectToken',
      group: 'GR1348941legacyGroupToken',
      instance: 'GR1348941legacyInstanceToken',
      key: 'glet_legacyclientkey0123',
    }

    /** A data directory whose database an older server wrote: migrations before 21, plain secrets. */
    function legacyDataDir(): string {
      const dataDir = mkdtempSync(join(tmpdir(), 'burrow-legacy-'))
      mkdirSync(dataDir, { recursive: true })
      const db = new Database(join(dataDir, DB_FILE))
      db.pragma('journal_mode = WAL')
      migrate(
        db,
        migrations.filter((m) => m.version < 21),
      )
      db.exec(`
        INSERT INTO users (id, username, name, email, is_admin, created_at, updated_at) VALUES (1, 'root', 'Root', 'root@example.com', 1, '${t}', '${t}');
        INSERT INTO namespaces (id, kind, name, path, full_path, full_name, created_at, updated_at) VALUES (1, 'group', 'G', 'g', 'g', 'G', '${t}', '${t}');
        INSERT INTO projects (id, namespace_id, name, path, created_at, updated_at, last_activity_at) VALUES (1, 1, 'P', 'p', '${t}', '${t}', '${t}');
        INSERT INTO ci_variables (id, project_id, key, value, created_at, updated_at) VALUES (1, 1, 'LEGACY', '${plain.variable}', '${t}', '${t}');
        INSERT INTO ci_pipelines (id, iid, project_id, ref, sha, source, commit_json, variables, status, created_at, updated_at)
          VALUES (1, 1, 1, 'main', '${'a'.repeat(40)}', 'api', '{}', '[{"key":"OLD","value":"${plain.pipeline}","variable_type":"env_var"}]', 'success', '${t}', '${t}');
        INSERT INTO ci_registration_tokens (source_type, source_id, token, created_at) VALUES ('Project', 1, '${plain.project}', '${t}'), ('Namespace', 1, '${plain.group}', '${t}');
        INSERT INTO error_tracking_client_keys (id, project_id, public_key, created_at, updated_at) VALUES (1, 1, '${plain.key}', '${t}', '${t}');
        INSERT INTO settings (key, value) VALUES ('runners_registration_token', '"${plain.instance}"');
      `)
      db.close()
      return dataDir
    }

    it('seals the plain secrets of an existing database, which keep working through the API', async () => {
      const dataDir = legacyDataDir()
      try {
        expect(databaseBytes(dataDir).includes(plain.variable)).toBe(true)
        const s = await server(dataDir)
        expect(
          (await s.request(ROOT_TOKEN, { method: 'GET', url: '/api/v4/projects/1/variables/LEGACY' })).json().value,
        ).toBe(plain.variable)
        expect(
          (await s.request(ROOT_TOKEN, { method: 'GET', url: '/api/v4/projects/1/pipelines/1/variables' })).json(),
        ).toEqual([{ variable_type: 'env_var', key: 'OLD', value: plain.pipeline }])
        expect((await s.request(ROOT_TOKEN, { method: 'GET', url: '/api/v4/projects/1' })).json().runners_token).toBe(
          plain.project,
        )
        expect((await s.request(ROOT_TOKEN, { method: 'GET', url: '/api/v4/groups/1' })).json().runners_token).toBe(
          plain.group,
        )
        expect(await instanceToken(s)).toBe(plain.instance)
        expect(
          (
            await s.request(ROOT_TOKEN, { method: 'GET', url: '/api/v4/projects/1/error_tracking/client_keys' })
          ).json()[0].public_key,
        ).toBe(plain.key)
        for (const token of [plain.project, plain.group, plain.instance]) {
          expect(
            (await s.request(null, { method: 'POST', url: '/api/v4/runners', payload: { token } })).statusCode,
          ).toBe(201)
        }
        await s.close()
        opened.splice(0)
        const bytes = databaseBytes(dataDir)
        for (const secret of Object.values(plain)) expect(bytes.includes(secret), secret).toBe(false)
      } finally {
        rmSync(dataDir, { recursive: true, force: true })
      }
    })

    it('needs the instance key only for a database that holds secrets', () => {
      const empty = new Database(':memory:')
      migrate(empty)
      expect(
        empty.prepare('SELECT COUNT(*) AS n FROM ci_registration_tokens WHERE token_digest IS NULL').get(),
      ).toEqual({ n: 0 })
      const dataDir = legacyDataDir()
      try {
        const db = new Database(join(dataDir, DB_FILE))
        expect(() => migrate(db)).toThrow(/needs the instance key/)
        // Refused whole: nothing renamed, nothing recorded.
        expect(db.prepare('SELECT value FROM ci_variables WHERE id = 1').get()).toEqual({ value: plain.variable })
        expect(db.prepare('SELECT COUNT(*) AS n FROM schema_migrations WHERE version = 21').get()).toEqual({ n: 0 })
        db.close()
      } finally {
        rmSync(dataDir, { recursive: true, force: true })
      }
    })
  })
})
