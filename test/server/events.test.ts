import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '../../src/server/app'
import { insertUser } from '../../src/server/modules/users/queries'
import { AccessLevel } from '../../src/server/platform/auth/access'
import type { NamespaceRow, ProjectRow } from '../../src/server/platform/db/rows'
import type { EventNote } from '../../src/shared/api/note'
import { actionName } from '../../src/server/modules/events/entity'
import { recordEvent, type NewEvent } from '../../src/server/modules/events/service'
import { runMaintenance } from '../../src/server/maintenance'
import { seedGroup, seedMember, seedProject } from '../helpers/fixtures'
import { makeServer, ROOT_TOKEN, seedUser, type SeededUser, type TestServer } from '../helpers/server'

interface EventJson {
  readonly id: number
  readonly project_id: number | null
  readonly action_name: string
  readonly target_type: string | null
  readonly author_id: number
  readonly [key: string]: unknown
}

describe('activity events', () => {
  let s: TestServer
  let alice: SeededUser
  let bob: SeededUser
  let carol: SeededUser
  let group: NamespaceRow
  let publicProject: ProjectRow
  let privateProject: ProjectRow
  let issueEvent: number
  let pushNew: number
  let pushTo: number
  let pushDelete: number
  let noteEvent: number
  let privateEvent: number
  let bobPublicEvent: number
  let oldEvent: number

  /**
   * A comment's note as a `commented` event stores it (notes' eventNote), in the shape written
   * before accounts could be locked: its author has no `locked`.
   */
  const storedNote: EventNote = {
    id: 900,
    type: null,
    body: 'Looks good',
    attachment: null,
    author: {
      id: 1,
      username: 'alice',
      name: 'Alice',
      state: 'active',
      avatar_url: null,
      web_url: 'http://localhost/alice',
    },
    created_at: '2024-03-13T08:00:00.000Z',
    updated_at: '2024-03-13T08:00:00.000Z',
    system: false,
    noteable_id: 501,
    noteable_type: 'Issue',
    project_id: 1,
    confidential: false,
    internal: false,
    noteable_iid: 1,
  }

  function seed(e: NewEvent, createdAt?: string): number {
    const id = recordEvent(s.app.burrow.db, e)
    if (createdAt) s.app.burrow.db.prepare('UPDATE events SET created_at = ? WHERE id = ?').run(createdAt, id)
    return id
  }

  async function get(
    token: string | null,
    url: string,
  ): Promise<{ status: number; body: unknown; headers: Record<string, unknown> }> {
    const res = await s.request(token, { method: 'GET', url })
    return { status: res.statusCode, body: res.json(), headers: res.headers }
  }

  async function list(token: string | null, url: string): Promise<EventJson[]> {
    const res = await get(token, url)
    expect(res.status).toBe(200)
    return res.body as EventJson[]
  }

  beforeAll(async () => {
    s = await makeServer()
    alice = seedUser(s, { username: 'alice' })
    bob = seedUser(s, { username: 'bob' })
    carol = seedUser(s, { username: 'carol' })
    group = seedGroup(s, { path: 'team', visibility: 'public' })
    publicProject = seedProject(s, { namespaceId: group.id, path: 'open', visibility: 'public' })
    privateProject = seedProject(s, { namespaceId: group.id, path: 'secret', visibility: 'private' })
    // alice can read the private project, bob cannot.
    seedMember(s, 'Project', privateProject.id, alice.user.id, AccessLevel.DEVELOPER)

    issueEvent = seed(
      {
        authorId: alice.user.id,
        action: 'created',
        projectId: publicProject.id,
        targetType: 'Issue',
        targetId: 501,
        targetIid: 1,
        targetTitle: 'First issue',
      },
      '2024-03-10T12:00:00.000Z',
    )
    pushNew = seed(
      {
        authorId: alice.user.id,
        action: 'pushed',
        projectId: publicProject.id,
        pushData: {
          commit_count: 1,
          action: 'created',
          ref_type: 'branch',
          commit_from: null,
          commit_to: 'a'.repeat(40),
          ref: 'feature',
          commit_title: 'Start',
          ref_count: null,
        },
      },
      '2024-03-11T00:00:00.000Z',
    )
    pushTo = seed(
      {
        authorId: alice.user.id,
        action: 'pushed',
        projectId: publicProject.id,
        pushData: {
          commit_count: 2,
          action: 'pushed',
          ref_type: 'branch',
          commit_from: 'a'.repeat(40),
          commit_to: 'b'.repeat(40),
          ref: 'feature',
          commit_title: 'More',
          ref_count: null,
        },
      },
      '2024-03-11T23:59:59.999Z',
    )
    pushDelete = seed(
      {
        authorId: alice.user.id,
        action: 'pushed',
        projectId: publicProject.id,
        pushData: {
          commit_count: 0,
          action: 'removed',
          ref_type: 'branch',
          commit_from: 'b'.repeat(40),
          commit_to: null,
          ref: 'feature',
          commit_title: null,
          ref_count: null,
        },
      },
      '2024-03-12T08:00:00.000Z',
    )
    noteEvent = seed(
      {
        authorId: alice.user.id,
        action: 'commented',
        projectId: publicProject.id,
        targetType: 'Note',
        targetId: 900,
        targetTitle: 'First issue',
        note: storedNote,
      },
      '2024-03-13T08:00:00.000Z',
    )
    privateEvent = seed(
      {
        authorId: alice.user.id,
        action: 'closed',
        projectId: privateProject.id,
        targetType: 'MergeRequest',
        targetId: 77,
        targetIid: 3,
        targetTitle: 'Secret MR',
      },
      '2024-03-14T08:00:00.000Z',
    )
    bobPublicEvent = seed(
      { authorId: bob.user.id, action: 'joined', projectId: publicProject.id },
      '2024-03-15T08:00:00.000Z',
    )
    oldEvent = seed(
      { authorId: carol.user.id, action: 'created', projectId: publicProject.id },
      '2015-01-01T00:00:00.000Z',
    )
  })
  afterAll(async () => {
    await s.close()
  })

  describe('GET /events', () => {
    it('answers 401 without credentials', async () => {
      const res = await get(null, '/api/v4/events')
      expect(res.status).toBe(401)
      expect(res.body).toEqual({ message: '401 Unauthorized' })
    })

    it("lists only the caller's own events, newest first", async () => {
      const events = await list(alice.token, '/api/v4/events')
      expect(events.map((e) => e.id)).toEqual([privateEvent, noteEvent, pushDelete, pushTo, pushNew, issueEvent])
    })

    it('with scope=all lists events of every project the caller can see', async () => {
      const ids = (await list(bob.token, '/api/v4/events?scope=all')).map((e) => e.id)
      expect(ids).toContain(bobPublicEvent)
      expect(ids).toContain(issueEvent)
      expect(ids).not.toContain(privateEvent)
      expect((await list(alice.token, '/api/v4/events?scope=all')).map((e) => e.id)).toContain(privateEvent)
    })

    it('renders an issue creation as GitLab does', async () => {
      const [event] = await list(alice.token, '/api/v4/events?target_type=issue')
      expect(event).toEqual({
        id: issueEvent,
        title: null,
        project_id: publicProject.id,
        action_name: 'opened',
        target_id: 501,
        target_iid: 1,
        target_type: 'Issue',
        author_id: alice.user.id,
        target_title: 'First issue',
        created_at: '2024-03-10T12:00:00.000Z',
        author: {
          id: alice.user.id,
          username: 'alice',
          name: alice.user.name,
          state: 'active',
          locked: false,
          avatar_url: null,
          web_url: 'http://burrow.test/alice',
        },
        author_username: 'alice',
        imported: false,
        imported_from: 'none',
      })
    })

    it('names push events by what happened to the ref and includes push_data', async () => {
      const events = await list(alice.token, '/api/v4/events?action=pushed&sort=asc')
      expect(events.map((e) => [e.id, e.action_name])).toEqual([
        [pushNew, 'pushed new'],
        [pushTo, 'pushed to'],
        [pushDelete, 'deleted'],
      ])
      expect(events[1].push_data).toEqual({
        commit_count: 2,
        action: 'pushed',
        ref_type: 'branch',
        commit_from: 'a'.repeat(40),
        commit_to: 'b'.repeat(40),
        ref: 'feature',
        commit_title: 'More',
        ref_count: null,
      })
    })

    it('includes the note of a comment event', async () => {
      const [event] = await list(alice.token, '/api/v4/events?action=commented')
      expect(event.action_name).toBe('commented on')
      expect(event.target_type).toBe('Note')
      // Served as stored: the response schema (Api.EventNote) drops and adds nothing.
      expect(event.note).toEqual(storedNote)
      expect(event).not.toHaveProperty('push_data')
    })

    it("accepts the spec's 'commented on' spelling of the action filter", async () => {
      expect((await list(alice.token, '/api/v4/events?action=commented%20on')).map((e) => e.id)).toEqual([noteEvent])
    })

    it('answers 400 for an unknown action', async () => {
      const res = await get(alice.token, '/api/v4/events?action=exploded')
      expect(res.status).toBe(400)
      expect(res.body).toEqual({ error: 'action does not have a valid value' })
    })

    it('filters by lowercase target_type', async () => {
      expect((await list(alice.token, '/api/v4/events?target_type=merge_request')).map((e) => e.id)).toEqual([
        privateEvent,
      ])
      expect((await list(alice.token, '/api/v4/events?target_type=note')).map((e) => e.id)).toEqual([noteEvent])
    })

    it('answers 400 for an unknown target_type', async () => {
      const res = await get(alice.token, '/api/v4/events?target_type=Issue')
      expect(res.status).toBe(400)
      expect(res.body).toEqual({ error: 'target_type does not have a valid value' })
    })

    it('treats before as exclusive of that whole day', async () => {
      const ids = (await list(alice.token, '/api/v4/events?before=2024-03-11')).map((e) => e.id)
      expect(ids).toEqual([issueEvent])
    })

    it('treats after as exclusive of that whole day', async () => {
      const ids = (await list(alice.token, '/api/v4/events?after=2024-03-11&sort=asc')).map((e) => e.id)
      expect(ids).toEqual([pushDelete, noteEvent, privateEvent])
    })

    it('answers 400 for a malformed date', async () => {
      expect((await get(alice.token, '/api/v4/events?before=yesterday')).body).toEqual({ error: 'before is invalid' })
      expect((await get(alice.token, '/api/v4/events?after=2024-02-30')).status).toBe(400)
    })

    it('sorts ascending by id on request', async () => {
      const ids = (await list(alice.token, '/api/v4/events?sort=asc')).map((e) => e.id)
      expect(ids).toEqual([issueEvent, pushNew, pushTo, pushDelete, noteEvent, privateEvent])
    })

    it('pages with page and per_page and sets pagination headers', async () => {
      const res = await get(alice.token, '/api/v4/events?per_page=2&page=2')
      expect((res.body as EventJson[]).map((e) => e.id)).toEqual([pushDelete, pushTo])
      expect(res.headers['x-total']).toBe('6')
      expect(res.headers['x-total-pages']).toBe('3')
      expect(res.headers['x-page']).toBe('2')
      expect(res.headers['x-next-page']).toBe('3')
      expect(res.headers['x-prev-page']).toBe('1')
    })

    it('accepts a token with only the read_user scope', async () => {
      const readUser = seedUser(s, { scopes: ['read_user'] })
      expect((await get(readUser.token, '/api/v4/events')).status).toBe(200)
    })
  })

  describe('GET /users/:id/events', () => {
    it('lists a user’s events by id and by username', async () => {
      const byId = (await list(ROOT_TOKEN, `/api/v4/users/${alice.user.id}/events`)).map((e) => e.id)
      const byName = (await list(ROOT_TOKEN, '/api/v4/users/alice/events')).map((e) => e.id)
      expect(byId).toEqual([privateEvent, noteEvent, pushDelete, pushTo, pushNew, issueEvent])
      expect(byName).toEqual(byId)
    })

    it('hides events in projects the caller cannot read', async () => {
      const ids = (await list(bob.token, `/api/v4/users/${alice.user.id}/events`)).map((e) => e.id)
      expect(ids).not.toContain(privateEvent)
      expect(ids).toContain(noteEvent)
    })

    it('shows public project events to anonymous callers', async () => {
      const ids = (await list(null, '/api/v4/users/alice/events')).map((e) => e.id)
      expect(ids).toEqual([noteEvent, pushDelete, pushTo, pushNew, issueEvent])
    })

    it('answers 404 for an unknown user', async () => {
      const res = await get(ROOT_TOKEN, '/api/v4/users/nobody-here/events')
      expect(res.status).toBe(404)
      expect(res.body).toEqual({ message: '404 User Not Found' })
    })

    it('returns nothing for a private profile unless the caller is that user or an admin', async () => {
      const shy = seedUser(s, { private_profile: 1 })
      const id = seed({ authorId: shy.user.id, action: 'joined', projectId: publicProject.id })
      expect(await list(bob.token, `/api/v4/users/${shy.user.id}/events`)).toEqual([])
      expect((await list(shy.token, `/api/v4/users/${shy.user.id}/events`)).map((e) => e.id)).toEqual([id])
      expect((await list(ROOT_TOKEN, `/api/v4/users/${shy.user.id}/events`)).map((e) => e.id)).toEqual([id])
    })

    it('accepts a token with only the read_user scope', async () => {
      const readUser = seedUser(s, { scopes: ['read_user'] })
      expect((await get(readUser.token, '/api/v4/users/alice/events')).status).toBe(200)
    })

    it('applies the action filter', async () => {
      expect(
        (await list(ROOT_TOKEN, '/api/v4/users/bob/events?action=joined')).map((e) => [e.id, e.action_name]),
      ).toEqual([[bobPublicEvent, 'joined']])
    })
  })

  describe('GET /projects/:id/events', () => {
    it('lists every event of a readable project', async () => {
      const ids = (await list(bob.token, `/api/v4/projects/${publicProject.id}/events`)).map((e) => e.id)
      // Every author's events, whatever their date; nothing from the project next door.
      expect(ids).toEqual(
        expect.arrayContaining([bobPublicEvent, noteEvent, pushDelete, pushTo, pushNew, issueEvent, oldEvent]),
      )
      expect(ids).not.toContain(privateEvent)
    })

    it('accepts the URL-encoded full path', async () => {
      const ids = (await list(alice.token, '/api/v4/projects/team%2Fsecret/events')).map((e) => e.id)
      expect(ids).toEqual([privateEvent])
    })

    it('answers 404 for a private project the caller cannot read', async () => {
      const res = await get(bob.token, `/api/v4/projects/${privateProject.id}/events`)
      expect(res.status).toBe(404)
      expect(res.body).toEqual({ message: '404 Project Not Found' })
    })

    it('answers 403 insufficient_scope to a token with only read_user', async () => {
      const readUser = seedUser(s, { scopes: ['read_user'] })
      const res = await get(readUser.token, `/api/v4/projects/${publicProject.id}/events`)
      expect(res.status).toBe(403)
      expect(res.body).toMatchObject({ error: 'insufficient_scope' })
    })

    it('filters by action and target_type together', async () => {
      const events = await list(
        bob.token,
        `/api/v4/projects/${publicProject.id}/events?action=created&target_type=issue`,
      )
      expect(events.map((e) => e.id)).toEqual([issueEvent])
    })
  })

  describe('events recorded by real operations', () => {
    it('shows a project created through POST /projects as a created event and a project audit event', async () => {
      const maker = seedUser(s)
      const created = await s.request(maker.token, {
        method: 'POST',
        url: '/api/v4/projects',
        payload: { name: 'made-here' },
      })
      expect(created.statusCode).toBe(201)
      const projectId = (created.json() as { id: number }).id
      const [event] = await list(maker.token, '/api/v4/events')
      expect(event).toMatchObject({
        project_id: projectId,
        action_name: 'created',
        target_type: null,
        author_id: maker.user.id,
      })
      const audits = (await get(maker.token, `/api/v4/projects/${projectId}/audit_events`)).body as {
        entity_type: string
        entity_id: number
      }[]
      expect(audits.map((a) => [a.entity_type, a.entity_id])).toContainEqual(['Project', projectId])
    })
  })

  describe('retention', () => {
    it('prunes events older than three years when maintenance runs', async () => {
      expect(s.app.burrow.db.prepare('SELECT COUNT(*) AS n FROM events WHERE id = ?').get(oldEvent)).toEqual({ n: 1 })
      const result = runMaintenance(s.app.burrow, new Date('2025-01-01T00:00:00Z'))
      expect(result.prunedEvents).toBeGreaterThanOrEqual(1)
      expect(s.app.burrow.db.prepare('SELECT COUNT(*) AS n FROM events WHERE id = ?').get(oldEvent)).toEqual({ n: 0 })
      expect(s.app.burrow.db.prepare('SELECT COUNT(*) AS n FROM events WHERE id = ?').get(issueEvent)).toEqual({ n: 1 })
    })

    it('prunes events older than three years when the server starts', async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'burrow-prune-'))
      try {
        const first = await buildApp({ dataDir })
        const user = insertUser(first.burrow.db, {
          username: 'ancient',
          name: 'Ancient',
          email: 'ancient@example.com',
          password_hash: null,
        })
        const stale = recordEvent(first.burrow.db, { authorId: user.id, action: 'joined' })
        const fresh = recordEvent(first.burrow.db, { authorId: user.id, action: 'left' })
        first.burrow.db.prepare('UPDATE events SET created_at = ? WHERE id = ?').run('2001-01-01T00:00:00.000Z', stale)
        await first.close()
        const second = await buildApp({ dataDir })
        const ids = (second.burrow.db.prepare('SELECT id FROM events ORDER BY id').all() as { id: number }[]).map(
          (r) => r.id,
        )
        await second.close()
        expect(ids).toEqual([fresh])
      } finally {
        rmSync(dataDir, { recursive: true, force: true })
      }
    })
  })
})

describe('actionName', () => {
  it.each([
    ['created', null, 'created'],
    ['created', 'Project', 'created'],
    ['created', 'Issue', 'opened'],
    ['created', 'MergeRequest', 'opened'],
    ['created', 'Milestone', 'opened'],
    ['created', 'Epic', 'opened'],
    ['reopened', 'Issue', 'opened'],
    ['closed', 'Issue', 'closed'],
    ['merged', 'MergeRequest', 'accepted'],
    ['commented', 'Note', 'commented on'],
    ['joined', null, 'joined'],
    ['left', null, 'left'],
    ['expired', null, 'removed due to membership expiration from'],
    ['destroyed', 'Milestone', 'destroyed'],
    ['approved', 'MergeRequest', 'approved'],
    ['created', 'WikiPage::Meta', 'created'],
    ['updated', 'WikiPage::Meta', 'updated'],
    ['created', 'DesignManagement::Design', 'added'],
    ['updated', 'DesignManagement::Design', 'updated'],
    ['destroyed', 'DesignManagement::Design', 'removed'],
  ] as const)('maps %s on %s to %s', (action, target, expected) => {
    expect(actionName(action, target)).toBe(expected)
  })
})
