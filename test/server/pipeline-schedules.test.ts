import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runDueSchedules } from '../../src/server/modules/pipeline-schedules'
import { AccessLevel } from '../../src/server/platform/auth/access'
import { commitFiles, createProject } from '../helpers/ci'
import { seedMember } from '../helpers/fixtures'
import { makeServer, seedUser, type SeededUser, type TestServer } from '../helpers/server'

type Json = Record<string, unknown>

const CI = 'test:\n  script: echo $NIGHTLY\n'

describe('Pipeline schedules API', () => {
  let s: TestServer
  let maintainer: SeededUser
  let developer: SeededUser
  let reporter: SeededUser
  let guest: SeededUser
  let outsider: SeededUser
  let pid = 0
  let base = ''

  const call = (token: string | null, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: Json) =>
    s.request(token, { method, url: `/api/v4${url}`, ...(payload ? { payload } : {}) })
  const ok = async (token: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: Json) => {
    const res = await call(token, method, url, payload)
    if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`)
    return (res.body === '' ? {} : res.json()) as Json & Json[]
  }
  const scheduleCount = (): number =>
    s.app.burrow.db.prepare('SELECT COUNT(*) FROM ci_pipeline_schedules').pluck().get() as number
  const create = (token: string, payload: Json) => ok(token, 'POST', base, payload)
  const nightly = { description: 'Nightly', ref: 'feature', cron: '0 2 * * *', cron_timezone: 'Europe/Berlin' }

  beforeAll(async () => {
    s = await makeServer()
    const owner = seedUser(s)
    maintainer = seedUser(s)
    developer = seedUser(s)
    reporter = seedUser(s)
    guest = seedUser(s)
    outsider = seedUser(s)
    pid = await createProject(s, owner.token)
    seedMember(s, 'Project', pid, maintainer.user.id, AccessLevel.MAINTAINER)
    seedMember(s, 'Project', pid, developer.user.id, AccessLevel.DEVELOPER)
    seedMember(s, 'Project', pid, reporter.user.id, AccessLevel.REPORTER)
    seedMember(s, 'Project', pid, guest.user.id, AccessLevel.GUEST)
    await commitFiles(s, maintainer.token, pid, 'main', { '.gitlab-ci.yml': CI })
    await commitFiles(s, developer.token, pid, 'feature', { 'notes.md': 'x' }, { startBranch: 'main' })
    await ok(maintainer.token, 'POST', `/projects/${pid}/repository/tags`, { tag_name: 'v1.0', ref: 'main' })
    base = `/projects/${pid}/pipeline_schedules`
  })
  afterAll(async () => {
    await s.close()
  })

  describe('creating', () => {
    it('lets a Developer create a schedule on a branch: full ref, owner, next run in its timezone', async () => {
      const created = await create(developer.token, nightly)
      expect(created).toMatchObject({
        description: 'Nightly',
        ref: 'refs/heads/feature',
        cron: '0 2 * * *',
        cron_timezone: 'Europe/Berlin',
        active: true,
        owner: { id: developer.user.id, username: developer.user.username },
        last_pipeline: null,
        variables: [],
      })
      const nextRun = new Date(String(created.next_run_at))
      expect(nextRun.getTime()).toBeGreaterThan(Date.now())
      const berlinHour = new Intl.DateTimeFormat('en-GB', {
        timeZone: 'Europe/Berlin',
        hour: 'numeric',
        minute: 'numeric',
      })
      expect(berlinHour.format(nextRun)).toBe('02:00')
    })

    it('accepts a full ref and a tag, and defaults the timezone to UTC', async () => {
      const full = await create(developer.token, { ...nightly, ref: 'refs/heads/feature', cron_timezone: undefined })
      expect(full).toMatchObject({ ref: 'refs/heads/feature', cron_timezone: 'UTC' })
      expect(await create(developer.token, { ...nightly, ref: 'v1.0' })).toMatchObject({ ref: 'refs/tags/v1.0' })
    })

    it('refuses bad cron, an unknown timezone and a missing ref with GitLab’s messages, writing nothing', async () => {
      const before = scheduleCount()
      const bad = await call(developer.token, 'POST', base, {
        ...nightly,
        cron: '61 * * * *',
        cron_timezone: 'Mars/Olympus',
        ref: 'nowhere',
      })
      expect(bad.statusCode).toBe(400)
      expect(bad.json()).toEqual({
        message: { cron: [' is invalid syntax'], cron_timezone: [' is invalid syntax'], ref: ['is ambiguous'] },
      })
      const missing = await call(developer.token, 'POST', base, { description: 'x', ref: 'main' })
      expect(missing.statusCode).toBe(400)
      const blank = await call(developer.token, 'POST', base, { ...nightly, description: '  ' })
      expect(blank.json()).toEqual({ message: { description: ["can't be blank"] } })
      expect(scheduleCount()).toBe(before)
    })

    it('refuses Reporters (403), anonymous callers (401) and outsiders of a private project (404)', async () => {
      expect((await call(reporter.token, 'POST', base, nightly)).statusCode).toBe(403)
      expect((await call(null, 'POST', base, nightly)).statusCode).toBe(401)
      expect((await call(outsider.token, 'POST', base, nightly)).statusCode).toBe(404)
    })

    it('refuses a Developer a schedule on a protected branch they may not push or merge to', async () => {
      const res = await call(developer.token, 'POST', base, { ...nightly, ref: 'main' })
      expect(res.statusCode).toBe(403)
      expect(await create(maintainer.token, { ...nightly, ref: 'main' })).toMatchObject({ ref: 'refs/heads/main' })
    })
  })

  describe('reading', () => {
    it('lists schedules to Reporters, filtered by scope; refuses Guests', async () => {
      const sleeping = await create(developer.token, { ...nightly, description: 'Sleeping', active: false })
      const all = await ok(reporter.token, 'GET', base)
      expect(all.map((x) => x.id)).toContain(sleeping.id)
      expect(all[0]).not.toHaveProperty('variables')
      const inactive = await ok(reporter.token, 'GET', `${base}?scope=inactive`)
      expect(inactive.map((x) => x.description)).toEqual(['Sleeping'])
      const active = await ok(reporter.token, 'GET', `${base}?scope=active`)
      expect(active.every((x) => x.active === true)).toBe(true)
      expect((await call(reporter.token, 'GET', `${base}?scope=paused`)).statusCode).toBe(400)
      expect((await call(guest.token, 'GET', base)).statusCode).toBe(403)
      expect((await call(reporter.token, 'GET', `${base}/999999`)).statusCode).toBe(404)
    })
  })

  describe('changing', () => {
    it('lets only the owner edit; a Maintainer takes ownership first', async () => {
      const schedule = await create(developer.token, nightly)
      const url = `${base}/${schedule.id}`
      expect((await call(maintainer.token, 'PUT', url, { description: 'Mine now' })).statusCode).toBe(403)
      const edited = await ok(developer.token, 'PUT', url, { cron: '0 3 * * *', active: false })
      expect(edited).toMatchObject({ cron: '0 3 * * *', active: false, description: 'Nightly' })
      expect(edited.next_run_at).not.toBe(schedule.next_run_at)
      expect((await call(developer.token, 'PUT', url, { cron: 'nope' })).statusCode).toBe(400)
      expect((await ok(developer.token, 'GET', url)).cron).toBe('0 3 * * *')

      expect((await call(developer.token, 'POST', `${url}/take_ownership`)).statusCode).toBe(403)
      const taken = await call(maintainer.token, 'POST', `${url}/take_ownership`)
      expect(taken.statusCode).toBe(201)
      expect(taken.json().owner.id).toBe(maintainer.user.id)
      expect((await call(developer.token, 'PUT', url, { description: 'Back' })).statusCode).toBe(403)
      expect(await ok(maintainer.token, 'PUT', url, { description: 'Mine now' })).toMatchObject({
        description: 'Mine now',
      })
    })

    it('deletes for the owner or a Maintainer, not another Developer', async () => {
      const schedule = await create(maintainer.token, nightly)
      const url = `${base}/${schedule.id}`
      expect((await call(developer.token, 'DELETE', url)).statusCode).toBe(403)
      expect((await call(maintainer.token, 'DELETE', url)).statusCode).toBe(204)
      expect((await call(maintainer.token, 'GET', url)).statusCode).toBe(404)
    })
  })

  describe('variables', () => {
    it('are added, changed and removed by the owner only, sealed at rest', async () => {
      const schedule = await create(developer.token, nightly)
      const vars = `${base}/${schedule.id}/variables`
      const added = await call(developer.token, 'POST', vars, { key: 'NIGHTLY', value: 'yes' })
      expect(added.statusCode).toBe(201)
      expect(added.json()).toEqual({ key: 'NIGHTLY', value: 'yes', variable_type: 'env_var' })
      const stored = s.app.burrow.db
        .prepare('SELECT encrypted_value FROM ci_pipeline_schedule_variables WHERE key = ?')
        .pluck()
        .get('NIGHTLY') as string
      expect(stored).not.toContain('yes')
      expect((await call(developer.token, 'POST', vars, { key: 'NIGHTLY', value: 'again' })).json()).toEqual({
        message: { key: ['has already been taken'] },
      })
      expect((await call(developer.token, 'POST', vars, { key: 'bad key', value: 'x' })).statusCode).toBe(400)
      expect((await call(maintainer.token, 'POST', vars, { key: 'OTHER', value: 'x' })).statusCode).toBe(403)
      const changed = await ok(developer.token, 'PUT', `${vars}/NIGHTLY`, { value: 'later', variable_type: 'file' })
      expect(changed).toEqual({ key: 'NIGHTLY', value: 'later', variable_type: 'file' })
      expect((await call(developer.token, 'PUT', `${vars}/MISSING`, { value: 'x' })).statusCode).toBe(404)
      await ok(developer.token, 'POST', vars, { key: 'DOOMED', value: 'x' })
      const removed = await call(developer.token, 'DELETE', `${vars}/DOOMED`)
      expect(removed.statusCode).toBe(202)
      expect(removed.json()).toMatchObject({ key: 'DOOMED' })
      expect((await ok(developer.token, 'GET', `${base}/${schedule.id}`)).variables).toEqual([
        { key: 'NIGHTLY', value: 'later', variable_type: 'file' },
      ])
    })
  })

  describe('running', () => {
    it('plays a schedule now as the caller: a schedule pipeline with its variables; next run unchanged', async () => {
      const schedule = await create(developer.token, nightly)
      const url = `${base}/${schedule.id}`
      await ok(developer.token, 'POST', `${url}/variables`, { key: 'NIGHTLY', value: 'played' })
      expect((await call(reporter.token, 'POST', `${url}/play`)).statusCode).toBe(403)
      const played = await call(developer.token, 'POST', `${url}/play`)
      expect(played.statusCode).toBe(201)
      expect(played.json()).toEqual({ message: '201 Created' })
      const [pipeline] = await ok(developer.token, 'GET', `${url}/pipelines`)
      expect(pipeline).toMatchObject({ ref: 'feature', source: 'schedule' })
      const variables = await ok(developer.token, 'GET', `/projects/${pid}/pipelines/${String(pipeline.id)}/variables`)
      expect(variables).toEqual([{ key: 'NIGHTLY', value: 'played', variable_type: 'env_var' }])
      const after = await ok(developer.token, 'GET', url)
      expect(after.last_pipeline).toMatchObject({ id: pipeline.id, status: 'pending' })
      expect(after.next_run_at).toBe(schedule.next_run_at)
    })

    it('refuses to play on a protected branch the caller may not push or merge to', async () => {
      const schedule = await create(maintainer.token, { ...nightly, ref: 'main' })
      expect((await call(developer.token, 'POST', `${base}/${schedule.id}/play`)).statusCode).toBe(403)
      expect((await call(maintainer.token, 'POST', `${base}/${schedule.id}/play`)).statusCode).toBe(201)
    })

    it('the scheduler runs due active schedules as their owner and moves them to their next run', async () => {
      const ctx = s.app.burrow
      s.app.burrow.db.prepare('UPDATE ci_pipeline_schedules SET active = 0').run()
      const due = await create(developer.token, { ...nightly, cron: '*/5 * * * *', cron_timezone: 'UTC' })
      const off = await create(developer.token, { ...nightly, cron: '*/5 * * * *', active: false })
      await ok(developer.token, 'POST', `${base}/${due.id}/variables`, { key: 'NIGHTLY', value: 'scheduled' })
      const dueAt = new Date(String(due.next_run_at))
      expect(await runDueSchedules(ctx, new Date(dueAt.getTime() - 1000))).toBe(0)
      expect(await runDueSchedules(ctx, new Date(dueAt.getTime() + 60_000))).toBe(1)
      const after = await ok(developer.token, 'GET', `${base}/${due.id}`)
      expect(after.next_run_at).toBe(new Date(dueAt.getTime() + 5 * 60_000).toISOString())
      expect(after.last_pipeline).toMatchObject({ source: 'schedule', ref: 'feature' })
      const pipelineId = String((after.last_pipeline as Json).id)
      const pipeline = await ok(developer.token, 'GET', `/projects/${pid}/pipelines/${pipelineId}`)
      expect(pipeline.user).toMatchObject({ id: developer.user.id })
      const variables = await ok(developer.token, 'GET', `/projects/${pid}/pipelines/${pipelineId}/variables`)
      expect(variables).toEqual([{ key: 'NIGHTLY', value: 'scheduled', variable_type: 'env_var' }])
      expect(await ok(developer.token, 'GET', `${base}/${off.id}/pipelines`)).toEqual([])
      // Already moved on: the same tick again runs nothing.
      expect(await runDueSchedules(ctx, new Date(dueAt.getTime() + 60_000))).toBe(0)
    })

    it('does not run a schedule whose owner can no longer run pipelines on its ref', async () => {
      const ctx = s.app.burrow
      s.app.burrow.db.prepare('UPDATE ci_pipeline_schedules SET active = 0').run()
      const demoted = seedUser(s)
      seedMember(s, 'Project', pid, demoted.user.id, AccessLevel.DEVELOPER)
      const schedule = await create(demoted.token, { ...nightly, cron: '*/5 * * * *' })
      s.app.burrow.db
        .prepare('UPDATE members SET access_level = ? WHERE user_id = ? AND source_id = ?')
        .run(AccessLevel.REPORTER, demoted.user.id, pid)
      const dueAt = new Date(String(schedule.next_run_at))
      expect(await runDueSchedules(ctx, new Date(dueAt.getTime() + 1000))).toBe(0)
      expect(await ok(maintainer.token, 'GET', `${base}/${schedule.id}/pipelines`)).toEqual([])
    })
  })
})
