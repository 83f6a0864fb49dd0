import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AccessLevel } from '../../src/server/platform/auth/access'
import type { NamespaceRow, ProjectRow } from '../../src/server/platform/db/rows'
import { seedGroup, seedMember, seedProject } from '../helpers/fixtures'
import { makeServer, ROOT_TOKEN, seedUser, type SeededUser, type TestServer } from '../helpers/server'

interface AuditJson {
  readonly id: number
  readonly author_id: number
  readonly entity_id: number
  readonly entity_type: string
  readonly details: Readonly<Record<string, unknown>>
  readonly created_at: string
}

/** Inserts an audit event as services/audit.ts records it (test setup without a request). */
function seedAudit(
  s: TestServer,
  e: {
    authorId: number
    entityType: 'User' | 'Group' | 'Project'
    entityId: number
    details?: Record<string, unknown>
    createdAt?: string
  },
): number {
  const details = {
    custom_message: 'something happened',
    author_name: 'someone',
    target_id: e.entityId,
    target_type: e.entityType,
    ip_address: '127.0.0.1',
    entity_path: 'x',
    ...e.details,
  }
  const info = s.app.burrow.db
    .prepare(
      'INSERT INTO audit_events (author_id, entity_id, entity_type, details, ip_address, created_at) VALUES (?, ?, ?, ?, ?, ?)',
    )
    .run(
      e.authorId,
      e.entityId,
      e.entityType,
      JSON.stringify(details),
      '127.0.0.1',
      e.createdAt ?? new Date().toISOString(),
    )
  return Number(info.lastInsertRowid)
}

describe('audit events', () => {
  let s: TestServer
  let owner: SeededUser
  let maintainer: SeededUser
  let developer: SeededUser
  let reporter: SeededUser
  let outsider: SeededUser
  let group: NamespaceRow
  let otherGroup: NamespaceRow
  let project: ProjectRow
  let rootId: number
  const ids: Record<string, number> = {}

  async function get(
    token: string | null,
    url: string,
  ): Promise<{ status: number; body: unknown; headers: Record<string, unknown> }> {
    const res = await s.request(token, { method: 'GET', url })
    return { status: res.statusCode, body: res.json(), headers: res.headers }
  }

  async function listIds(token: string, url: string): Promise<number[]> {
    const res = await get(token, url)
    expect(res.status).toBe(200)
    return (res.body as AuditJson[]).map((e) => e.id)
  }

  beforeAll(async () => {
    s = await makeServer()
    rootId = (s.app.burrow.db.prepare("SELECT id FROM users WHERE username = 'root'").get() as { id: number }).id
    owner = seedUser(s)
    maintainer = seedUser(s)
    developer = seedUser(s)
    reporter = seedUser(s)
    outsider = seedUser(s)
    group = seedGroup(s, { path: 'audited', visibility: 'private' })
    otherGroup = seedGroup(s, { path: 'elsewhere', visibility: 'private' })
    project = seedProject(s, { namespaceId: group.id, path: 'app', visibility: 'private' })
    seedMember(s, 'Namespace', group.id, owner.user.id, AccessLevel.OWNER)
    seedMember(s, 'Namespace', group.id, maintainer.user.id, AccessLevel.MAINTAINER)
    seedMember(s, 'Namespace', group.id, developer.user.id, AccessLevel.DEVELOPER)
    seedMember(s, 'Namespace', group.id, reporter.user.id, AccessLevel.REPORTER)

    ids.userEvent = seedAudit(s, {
      authorId: rootId,
      entityType: 'User',
      entityId: owner.user.id,
      createdAt: '2024-01-01T10:00:00.000Z',
    })
    ids.groupByOwner = seedAudit(s, {
      authorId: owner.user.id,
      entityType: 'Group',
      entityId: group.id,
      details: {
        add: 'user_access',
        as: 'Developer',
        author_name: owner.user.name,
        target_details: developer.user.username,
        entity_path: 'audited',
      },
      createdAt: '2024-02-01T10:00:00.000Z',
    })
    ids.groupByDeveloper = seedAudit(s, {
      authorId: developer.user.id,
      entityType: 'Group',
      entityId: group.id,
      createdAt: '2024-03-01T10:00:00.000Z',
    })
    ids.groupByMaintainer = seedAudit(s, {
      authorId: maintainer.user.id,
      entityType: 'Group',
      entityId: group.id,
      createdAt: '2024-04-01T10:00:00.000Z',
    })
    ids.otherGroup = seedAudit(s, {
      authorId: rootId,
      entityType: 'Group',
      entityId: otherGroup.id,
      createdAt: '2024-05-01T10:00:00.000Z',
    })
    ids.projectByMaintainer = seedAudit(s, {
      authorId: maintainer.user.id,
      entityType: 'Project',
      entityId: project.id,
      details: { change: 'visibility', from: 'Private', to: 'Internal', entity_path: 'audited/app' },
      createdAt: '2024-06-01T10:00:00.000Z',
    })
    ids.projectByDeveloper = seedAudit(s, {
      authorId: developer.user.id,
      entityType: 'Project',
      entityId: project.id,
      createdAt: '2024-07-01T10:00:00.000Z',
    })
  })
  afterAll(async () => {
    await s.close()
  })

  describe('GET /audit_events (instance)', () => {
    it('answers 401 without credentials', async () => {
      expect((await get(null, '/api/v4/audit_events')).status).toBe(401)
    })

    it('answers 403 to non-administrators', async () => {
      const res = await get(owner.token, '/api/v4/audit_events')
      expect(res.status).toBe(403)
      expect(res.body).toEqual({ message: '403 Forbidden' })
    })

    it('lists every event newest first for administrators', async () => {
      expect(await listIds(ROOT_TOKEN, '/api/v4/audit_events')).toEqual([
        ids.projectByDeveloper,
        ids.projectByMaintainer,
        ids.otherGroup,
        ids.groupByMaintainer,
        ids.groupByDeveloper,
        ids.groupByOwner,
        ids.userEvent,
      ])
    })

    it('renders the audit event entity with details as recorded', async () => {
      const res = await get(ROOT_TOKEN, `/api/v4/audit_events/${ids.groupByOwner}`)
      expect(res.status).toBe(200)
      expect(res.body).toEqual({
        id: ids.groupByOwner,
        author_id: owner.user.id,
        entity_id: group.id,
        entity_type: 'Group',
        details: {
          custom_message: 'something happened',
          add: 'user_access',
          as: 'Developer',
          author_name: owner.user.name,
          target_id: group.id,
          target_type: 'Group',
          target_details: developer.user.username,
          ip_address: '127.0.0.1',
          entity_path: 'audited',
        },
        created_at: '2024-02-01T10:00:00.000Z',
      })
    })

    it('filters by entity_type and entity_id', async () => {
      expect(await listIds(ROOT_TOKEN, '/api/v4/audit_events?entity_type=Project')).toEqual([
        ids.projectByDeveloper,
        ids.projectByMaintainer,
      ])
      expect(await listIds(ROOT_TOKEN, `/api/v4/audit_events?entity_type=Group&entity_id=${otherGroup.id}`)).toEqual([
        ids.otherGroup,
      ])
    })

    it('answers 400 for entity_id without entity_type', async () => {
      const res = await get(ROOT_TOKEN, `/api/v4/audit_events?entity_id=${group.id}`)
      expect(res.status).toBe(400)
      expect(res.body).toEqual({ error: 'entity_type is missing' })
    })

    it('answers 400 for an unknown entity_type', async () => {
      const res = await get(ROOT_TOKEN, '/api/v4/audit_events?entity_type=Runner')
      expect(res.status).toBe(400)
      expect(res.body).toEqual({ error: 'entity_type does not have a valid value' })
    })

    it('filters by created_after and created_before, both inclusive', async () => {
      const url = '/api/v4/audit_events?created_after=2024-02-01T10:00:00Z&created_before=2024-04-01T10:00:00Z'
      expect(await listIds(ROOT_TOKEN, url)).toEqual([ids.groupByMaintainer, ids.groupByDeveloper, ids.groupByOwner])
    })

    it('answers 400 for a malformed created_after', async () => {
      const res = await get(ROOT_TOKEN, '/api/v4/audit_events?created_after=last-week')
      expect(res.status).toBe(400)
      expect(res.body).toEqual({ error: 'created_after is invalid' })
    })

    it('paginates with headers', async () => {
      const res = await get(ROOT_TOKEN, '/api/v4/audit_events?per_page=3&page=3')
      expect((res.body as AuditJson[]).map((e) => e.id)).toEqual([ids.userEvent])
      expect(res.headers['x-total']).toBe('7')
      expect(res.headers['x-total-pages']).toBe('3')
      expect(res.headers['x-prev-page']).toBe('2')
      expect(res.headers['x-next-page']).toBe('')
    })
  })

  describe('GET /audit_events/:id', () => {
    it('answers 404 with the audit event message for an unknown id', async () => {
      const res = await get(ROOT_TOKEN, '/api/v4/audit_events/999999')
      expect(res.status).toBe(404)
      expect(res.body).toEqual({ message: '404 Audit Event Not Found' })
    })

    it('answers 403 to non-administrators', async () => {
      expect((await get(owner.token, `/api/v4/audit_events/${ids.groupByOwner}`)).status).toBe(403)
    })
  })

  describe('GET /groups/:id/audit_events', () => {
    it('shows the owner every event of the group', async () => {
      expect(await listIds(owner.token, `/api/v4/groups/${group.id}/audit_events`)).toEqual([
        ids.groupByMaintainer,
        ids.groupByDeveloper,
        ids.groupByOwner,
      ])
    })

    it('shows a maintainer only their own actions', async () => {
      expect(await listIds(maintainer.token, `/api/v4/groups/${group.id}/audit_events`)).toEqual([
        ids.groupByMaintainer,
      ])
    })

    it('shows a developer only their own actions', async () => {
      expect(await listIds(developer.token, '/api/v4/groups/audited/audit_events')).toEqual([ids.groupByDeveloper])
    })

    it('answers 403 to a reporter', async () => {
      expect((await get(reporter.token, `/api/v4/groups/${group.id}/audit_events`)).status).toBe(403)
    })

    it('answers 404 to someone who cannot see the private group', async () => {
      const res = await get(outsider.token, `/api/v4/groups/${group.id}/audit_events`)
      expect(res.status).toBe(404)
      expect(res.body).toEqual({ message: '404 Group Not Found' })
    })

    it('filters by created_after', async () => {
      expect(await listIds(owner.token, `/api/v4/groups/${group.id}/audit_events?created_after=2024-03-01`)).toEqual([
        ids.groupByMaintainer,
        ids.groupByDeveloper,
      ])
    })

    it('gives one event to the owner and to administrators', async () => {
      expect(
        (await get(owner.token, `/api/v4/groups/${group.id}/audit_events/${ids.groupByDeveloper}`)).body,
      ).toMatchObject({ id: ids.groupByDeveloper })
      expect((await get(ROOT_TOKEN, `/api/v4/groups/${group.id}/audit_events/${ids.groupByDeveloper}`)).status).toBe(
        200,
      )
    })

    it('answers 403 for one event to a maintainer', async () => {
      expect(
        (await get(maintainer.token, `/api/v4/groups/${group.id}/audit_events/${ids.groupByMaintainer}`)).status,
      ).toBe(403)
    })

    it("answers 404 for another group's event", async () => {
      const res = await get(owner.token, `/api/v4/groups/${group.id}/audit_events/${ids.otherGroup}`)
      expect(res.status).toBe(404)
      expect(res.body).toEqual({ message: '404 Audit Event Not Found' })
    })
  })

  describe('GET /projects/:id/audit_events', () => {
    it('shows a maintainer every event of the project', async () => {
      expect(await listIds(maintainer.token, `/api/v4/projects/${project.id}/audit_events`)).toEqual([
        ids.projectByDeveloper,
        ids.projectByMaintainer,
      ])
    })

    it('shows a developer only their own actions', async () => {
      expect(await listIds(developer.token, '/api/v4/projects/audited%2Fapp/audit_events')).toEqual([
        ids.projectByDeveloper,
      ])
    })

    it('answers 403 to a reporter', async () => {
      expect((await get(reporter.token, `/api/v4/projects/${project.id}/audit_events`)).status).toBe(403)
    })

    it('answers 404 to someone who cannot see the private project', async () => {
      expect((await get(outsider.token, `/api/v4/projects/${project.id}/audit_events`)).status).toBe(404)
    })

    it('gives one event to a maintainer', async () => {
      const res = await get(maintainer.token, `/api/v4/projects/${project.id}/audit_events/${ids.projectByMaintainer}`)
      expect(res.status).toBe(200)
      expect(res.body).toMatchObject({
        id: ids.projectByMaintainer,
        entity_type: 'Project',
        details: { change: 'visibility', from: 'Private', to: 'Internal' },
      })
    })

    it('answers 403 for one event to a developer', async () => {
      expect(
        (await get(developer.token, `/api/v4/projects/${project.id}/audit_events/${ids.projectByDeveloper}`)).status,
      ).toBe(403)
    })

    it("answers 404 for an event that is not the project's", async () => {
      expect(
        (await get(maintainer.token, `/api/v4/projects/${project.id}/audit_events/${ids.groupByMaintainer}`)).status,
      ).toBe(404)
    })
  })
})
