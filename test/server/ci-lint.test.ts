import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AccessLevel } from '../../src/server/platform/auth/access'
import { commitFiles, createProject } from '../helpers/ci'
import { seedMember } from '../helpers/fixtures'
import { ROOT_TOKEN, makeServer, seedUser, type SeededUser, type TestServer } from '../helpers/server'

const VALID = 'build:\n  stage: build\n  script: make\ntest:\n  script: make test\n  needs: [build]\n'

describe('CI lint', () => {
  let s: TestServer
  let maintainer: SeededUser
  let developer: SeededUser
  let reporter: SeededUser
  let guest: SeededUser
  let outsider: SeededUser
  let pid: number
  let sha: string

  const lint = (token: string | null, payload: Record<string, unknown>) =>
    s.request(token, { method: 'POST', url: '/api/v4/ci/lint', payload })
  const projectLint = (token: string | null, payload: Record<string, unknown>, id = pid) =>
    s.request(token, { method: 'POST', url: `/api/v4/projects/${id}/ci/lint`, payload })
  const getLint = (token: string | null, query = '', id = pid) =>
    s.request(token, { method: 'GET', url: `/api/v4/projects/${id}/ci/lint${query}` })

  beforeAll(async () => {
    s = await makeServer()
    maintainer = seedUser(s)
    developer = seedUser(s)
    reporter = seedUser(s)
    guest = seedUser(s)
    outsider = seedUser(s)
    pid = await createProject(s, maintainer.token)
    for (const [u, level] of [
      [developer, AccessLevel.DEVELOPER],
      [reporter, AccessLevel.REPORTER],
      [guest, AccessLevel.GUEST],
    ] as const)
      seedMember(s, 'Project', pid, u.user.id, level)
    sha = await commitFiles(s, maintainer.token, pid, 'main', {
      '.gitlab-ci.yml':
        'include:\n  - local: ci/build.yml\n.tpl:\n  script: echo tpl\ntest:\n  extends: .tpl\n  stage: test\n  rules:\n    - if: $DEPLOY_ENV == "staging"\n',
      'ci/build.yml': 'build:\n  stage: build\n  script: make\n',
    })
  })
  afterAll(async () => {
    await s.close()
  })

  describe('POST /ci/lint', () => {
    it('answers status valid, no errors, and merged_yaml only when asked', async () => {
      const res = await lint(developer.token, { content: VALID })
      expect(res.statusCode).toBe(200)
      expect(res.json()).toEqual({ status: 'valid', valid: true, errors: [], warnings: [], includes: [] })
      const merged = await lint(developer.token, { content: VALID, include_merged_yaml: true })
      expect(merged.json().merged_yaml).toBe(
        '---\nbuild:\n  stage: build\n  script: make\ntest:\n  script: make test\n  needs:\n  - build\n',
      )
    })

    it('answers status invalid with the errors for a bad configuration', async () => {
      const res = await lint(developer.token, { content: 'test:\n  script: t\n  stage: nope\n' })
      expect(res.statusCode).toBe(200)
      expect(res.json()).toMatchObject({
        status: 'invalid',
        valid: false,
        errors: ['test job: chosen stage does not exist; available stages are .pre, build, test, deploy, .post'],
      })
    })

    it('answers {error} when content is missing', async () => {
      const res = await lint(developer.token, {})
      expect(res.statusCode).toBe(400)
      expect(res.json()).toEqual({ error: 'content is missing' })
    })

    it('cannot resolve local includes without a project', async () => {
      expect((await lint(developer.token, { content: 'include: a.yml\nj:\n  script: j\n' })).json().errors).toEqual([
        'Local file `a.yml` does not have project!',
      ])
    })

    it('lists the jobs when include_jobs is set', async () => {
      const jobs = (await lint(developer.token, { content: VALID, include_jobs: true })).json().jobs
      expect(jobs).toEqual([
        {
          name: 'build',
          stage: 'build',
          before_script: [],
          script: ['make'],
          after_script: [],
          tag_list: [],
          environment: null,
          when: 'on_success',
          allow_failure: false,
          only: { refs: ['branches', 'tags'] },
          except: null,
        },
        {
          name: 'test',
          stage: 'test',
          before_script: [],
          script: ['make test'],
          after_script: [],
          tag_list: [],
          environment: null,
          when: 'on_success',
          allow_failure: false,
          only: { refs: ['branches', 'tags'] },
          except: null,
        },
      ])
    })

    it('needs no authentication while the instance allows sign-ups, and 401 once it does not', async () => {
      expect((await lint(null, { content: VALID })).json().status).toBe('valid')
      expect(
        (
          await s.request(ROOT_TOKEN, {
            method: 'PUT',
            url: '/api/v4/application/settings',
            payload: { signup_enabled: false },
          })
        ).statusCode,
      ).toBe(200)
      try {
        const anonymous = await lint(null, { content: VALID })
        expect(anonymous.statusCode).toBe(401)
        expect(anonymous.json()).toEqual({ message: '401 Unauthorized' })
        expect((await lint(developer.token, { content: VALID })).statusCode).toBe(200)
      } finally {
        await s.request(ROOT_TOKEN, {
          method: 'PUT',
          url: '/api/v4/application/settings',
          payload: { signup_enabled: true },
        })
      }
    })
  })

  describe('POST /projects/:id/ci/lint', () => {
    it('validates content in the project, resolving local includes from the default branch', async () => {
      const res = await projectLint(developer.token, {
        content: 'include: ci/build.yml\ntest:\n  script: t\n  needs: [build]\n',
      })
      expect(res.statusCode).toBe(200)
      expect(res.json()).toMatchObject({
        valid: true,
        errors: [],
        warnings: [],
        merged_yaml: '---\ninclude:\n- ci/build.yml\ntest:\n  script: t\n  needs:\n  - build\n',
      })
      expect(res.json().includes).toEqual([
        expect.objectContaining({
          type: 'local',
          location: 'ci/build.yml',
          context_sha: sha,
          blob: expect.stringContaining(`/-/blob/${sha}/ci/build.yml`),
        }),
      ])
      expect(res.json()).not.toHaveProperty('status')
    })

    it('reports a local include that does not exist', async () => {
      expect(
        (await projectLint(developer.token, { content: 'include: nope.yml\nj:\n  script: j\n' })).json(),
      ).toMatchObject({ valid: false, errors: ['Local file `nope.yml` does not exist!'] })
    })

    it('simulates pipeline creation with dry_run: rules apply, so a ref without jobs is an error', async () => {
      const content = 'j:\n  script: j\n  rules:\n    - if: $CI_COMMIT_BRANCH == "release"\n'
      expect((await projectLint(developer.token, { content })).json()).toMatchObject({ valid: true, errors: [] })
      const dry = await projectLint(developer.token, { content, dry_run: true, include_jobs: true })
      expect(dry.json()).toMatchObject({ valid: false, errors: ['No stages / jobs for this pipeline.'], jobs: [] })
      await commitFiles(s, developer.token, pid, 'release', { 'r.txt': 'r' }, { startBranch: 'main' })
      const onRelease = await projectLint(developer.token, {
        content,
        dry_run: true,
        ref: 'release',
        include_jobs: true,
      })
      expect(onRelease.json()).toMatchObject({ valid: true, errors: [], jobs: [{ name: 'j', when: 'on_success' }] })
      expect((await projectLint(developer.token, { content, dry_run: true, ref: 'missing' })).json()).toMatchObject({
        valid: false,
        errors: ['Reference not found'],
      })
    })

    it('needs Developer: 403 for Reporters, 404 for non-members, 401 anonymous; content missing is {error}', async () => {
      expect((await projectLint(reporter.token, { content: VALID })).statusCode).toBe(403)
      expect((await projectLint(outsider.token, { content: VALID })).statusCode).toBe(404)
      expect((await projectLint(null, { content: VALID })).statusCode).toBe(401)
      expect((await projectLint(developer.token, {})).json()).toEqual({ error: 'content is missing' })
    })
  })

  describe('GET /projects/:id/ci/lint', () => {
    it("lints the default branch's configuration with its local includes (extends and includes stay out of merged_yaml)", async () => {
      const res = await getLint(reporter.token)
      expect(res.statusCode).toBe(200)
      expect(res.json()).toMatchObject({
        valid: true,
        errors: [],
        merged_yaml:
          '---\ninclude:\n- local: ci/build.yml\n.tpl:\n  script: echo tpl\ntest:\n  extends: .tpl\n  stage: test\n  rules:\n  - if: $DEPLOY_ENV == "staging"\n',
        includes: [expect.objectContaining({ location: 'ci/build.yml' })],
      })
    })

    it("uses the project's variables in a dry run", async () => {
      const before = (await getLint(reporter.token, '?dry_run=true&include_jobs=true')).json()
      expect(before.jobs.map((j: { name: string }) => j.name)).toEqual(['build'])
      expect(
        (
          await s.request(maintainer.token, {
            method: 'POST',
            url: `/api/v4/projects/${pid}/variables`,
            payload: { key: 'DEPLOY_ENV', value: 'staging' },
          })
        ).statusCode,
      ).toBe(201)
      const after = (await getLint(reporter.token, '?dry_run=true&include_jobs=true')).json()
      expect(after.jobs.map((j: { name: string }) => j.name)).toEqual(['build', 'test'])
    })

    it('lints an older commit given by content_ref (or sha)', async () => {
      const newer = await commitFiles(s, maintainer.token, pid, 'main', { '.gitlab-ci.yml': 'broken:\n  scriptt: x\n' })
      expect((await getLint(reporter.token)).json().valid).toBe(false)
      expect((await getLint(reporter.token, `?content_ref=${sha}`)).json().valid).toBe(true)
      expect((await getLint(reporter.token, `?sha=${sha}`)).json().valid).toBe(true)
      expect((await getLint(reporter.token, `?sha=${sha}&content_ref=${newer}`)).statusCode).toBe(400)
      expect((await getLint(reporter.token, '?content_ref=0000000000000000000000000000000000000001')).json()).toEqual({
        message: '404 Commit Not Found',
      })
    })

    it('needs code access: Guests of a private project get 403, non-members 404; an empty repository is 404', async () => {
      expect((await getLint(guest.token)).statusCode).toBe(403)
      expect((await getLint(outsider.token)).statusCode).toBe(404)
      const empty = await createProject(s, maintainer.token, { initialize_with_readme: false })
      const res = await getLint(maintainer.token, '', empty)
      expect(res.statusCode).toBe(404)
      expect(res.json()).toEqual({ message: '404 Repository Not Found' })
    })

    it('asks for content when the branch has no CI configuration', async () => {
      const bare = await createProject(s, maintainer.token)
      expect((await getLint(maintainer.token, '', bare)).json()).toMatchObject({
        valid: false,
        errors: ['Please provide content of .gitlab-ci.yml'],
      })
    })
  })
})
