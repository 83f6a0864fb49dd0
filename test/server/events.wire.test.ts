import { Gitlab } from '@gitbeaker/rest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { NamespaceRow, ProjectRow } from '../../src/server/platform/db/rows'
import { recordEvent } from '../../src/server/modules/events/service'
import { seedGroup, seedProject } from '../helpers/fixtures'
import { withPythonGitlab } from '../helpers/python-gitlab'
import { ROOT_TOKEN, seedUser, startServer, type ListeningServer, type SeededUser } from '../helpers/server'

interface Listed {
  readonly id: number
  readonly action_name?: string
  readonly target_type?: string | null
  readonly entity_type?: string
}

describe('events and audit events over the wire', () => {
  let s: ListeningServer
  let alice: SeededUser
  let group: NamespaceRow
  let project: ProjectRow
  let issueEvent: number
  let pushEvent: number
  let groupAudit: number
  let projectAudit: number
  let userAudit: number

  function audit(entityType: 'User' | 'Group' | 'Project', entityId: number, authorId: number): number {
    const details = JSON.stringify({
      custom_message: `changed ${entityType}`,
      author_name: 'root',
      target_id: entityId,
      target_type: entityType,
      ip_address: '127.0.0.1',
    })
    const info = s.app.burrow.db
      .prepare(
        'INSERT INTO audit_events (author_id, entity_id, entity_type, details, ip_address, created_at) VALUES (?, ?, ?, ?, ?, ?)',
      )
      .run(authorId, entityId, entityType, details, '127.0.0.1', new Date().toISOString())
    return Number(info.lastInsertRowid)
  }

  beforeAll(async () => {
    s = await startServer()
    alice = seedUser(s, { username: 'alice' })
    group = seedGroup(s, { path: 'wire', visibility: 'public' })
    project = seedProject(s, { namespaceId: group.id, path: 'tool', visibility: 'public' })
    const db = s.app.burrow.db
    issueEvent = recordEvent(db, {
      authorId: alice.user.id,
      action: 'created',
      projectId: project.id,
      targetType: 'Issue',
      targetId: 1,
      targetIid: 1,
      targetTitle: 'Bug',
    })
    pushEvent = recordEvent(db, {
      authorId: alice.user.id,
      action: 'pushed',
      projectId: project.id,
      pushData: {
        commit_count: 1,
        action: 'pushed',
        ref_type: 'branch',
        commit_from: 'a'.repeat(40),
        commit_to: 'b'.repeat(40),
        ref: 'main',
        commit_title: 'Fix',
      },
    })
    const rootId = (db.prepare("SELECT id FROM users WHERE username = 'root'").get() as { id: number }).id
    userAudit = audit('User', alice.user.id, rootId)
    groupAudit = audit('Group', group.id, rootId)
    projectAudit = audit('Project', project.id, rootId)
  })
  afterAll(async () => {
    await s.close()
  })

  describe('python-gitlab', () => {
    it("lists the caller's events with gl.events.list", async () => {
      const events = await withPythonGitlab<Listed[]>(
        s.url,
        { private_token: alice.token },
        'out([e.attributes for e in gl.events.list(all=True)])',
      )
      expect(events.map((e) => [e.id, e.action_name])).toEqual([
        [pushEvent, 'pushed to'],
        [issueEvent, 'opened'],
      ])
    })

    it('filters project events by action and target_type', async () => {
      const events = await withPythonGitlab<Listed[]>(
        s.url,
        { private_token: ROOT_TOKEN },
        `p = gl.projects.get(${project.id}, lazy=True)\nout([e.attributes for e in p.events.list(action='created', target_type='issue')])`,
      )
      expect(events.map((e) => [e.id, e.target_type])).toEqual([[issueEvent, 'Issue']])
    })

    it("lists a user's events with user.events.list", async () => {
      const events = await withPythonGitlab<Listed[]>(
        s.url,
        { private_token: ROOT_TOKEN },
        `u = gl.users.get(${alice.user.id}, lazy=True)\nout([e.attributes for e in u.events.list()])`,
      )
      expect(events.map((e) => e.id)).toEqual([pushEvent, issueEvent])
    })

    it('lists instance, group and project audit events', async () => {
      const result = await withPythonGitlab<Record<string, Listed[]>>(
        s.url,
        { private_token: ROOT_TOKEN },
        [
          `g = gl.groups.get(${group.id}, lazy=True)`,
          `p = gl.projects.get(${project.id}, lazy=True)`,
          'out({"instance": [e.attributes for e in gl.audit_events.list()],',
          '     "group": [e.attributes for e in g.audit_events.list()],',
          '     "project": [e.attributes for e in p.audit_events.list()],',
          '     "one": [gl.audit_events.get(' + String(userAudit) + ').attributes]})',
        ].join('\n'),
      )
      expect(result.instance.map((e) => e.id)).toEqual([projectAudit, groupAudit, userAudit])
      expect(result.group.map((e) => e.id)).toEqual([groupAudit])
      expect(result.project.map((e) => e.id)).toEqual([projectAudit])
      expect(result.one[0]).toMatchObject({ id: userAudit, entity_type: 'User', entity_id: alice.user.id })
    })
  })

  describe('pagination through Link headers', () => {
    let pager: SeededUser
    beforeAll(() => {
      pager = seedUser(s)
      for (let i = 0; i < 45; i++)
        recordEvent(s.app.burrow.db, { authorId: pager.user.id, action: 'joined', projectId: project.id })
    })

    it('python-gitlab follows every page with all=True', async () => {
      const result = await withPythonGitlab<{ count: number; total: number | null }>(
        s.url,
        { private_token: pager.token },
        'lst = gl.events.list(per_page=10, iterator=True)\nitems = list(lst)\nout({"count": len(items), "total": lst.total})',
      )
      expect(result).toEqual({ count: 45, total: 45 })
    })

    it('@gitbeaker/rest follows every page', async () => {
      const api = new Gitlab({ host: s.url, token: pager.token })
      const events = await api.Events.all({ perPage: 10 })
      expect(events).toHaveLength(45)
      expect(new Set(events.map((e) => e.id)).size).toBe(45)
    })
  })

  describe('@gitbeaker/rest', () => {
    it('lists events with Events.all', async () => {
      const api = new Gitlab({ host: s.url, token: alice.token })
      const mine = await api.Events.all({ action: 'pushed' })
      expect(mine.map((e) => e.id)).toEqual([pushEvent])
      const ofProject = await api.Events.all({ projectId: project.id, targetType: 'issue' })
      expect(ofProject.map((e) => e.id)).toEqual([issueEvent])
    })

    it('lists audit events with AuditEvents.all', async () => {
      const api = new Gitlab({ host: s.url, token: ROOT_TOKEN })
      const all = await api.AuditEvents.all({ entityType: 'Group' })
      expect(all.map((e) => e.id)).toEqual([groupAudit])
      const ofProject = await api.AuditEvents.all({ projectId: project.id })
      expect(ofProject.map((e) => e.id)).toEqual([projectAudit])
    })
  })
})
