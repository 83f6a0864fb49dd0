import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AccessLevel } from '../../src/server/platform/auth/access'
import type { NamespaceRow, ProjectRow } from '../../src/server/platform/db/rows'
import { receiveAlertPayload } from '../../src/server/modules/alerts/service'
import { seedGroup, seedMember, seedProject } from '../helpers/fixtures'
import { makeServer, ROOT_TOKEN, seedUser, type SeededUser, type TestServer } from '../helpers/server'

/**
 * Confidential issues, internal notes and confidential epics stay out of every list that would
 * show their title or body — to anonymous callers, non-members of a public project and Guests —
 * while Reporters, authors, assignees and administrators see them; counts and pagination headers
 * follow what is shown. Each secret is a unique marker searched for in the raw JSON text.
 */
describe('confidential items in lists', () => {
  let s: TestServer
  let group: NamespaceRow
  let project: ProjectRow
  let author: SeededUser
  let reporter: SeededUser
  let guest: SeededUser
  let assignee: SeededUser
  let outsider: SeededUser
  let openIid: number
  let secretIid: number
  let secretId: number

  const CONFIDENTIAL_TITLE = 'SECRET-confidential-issue-title'
  const CONFIDENTIAL_COMMENT = 'SECRET-comment-on-confidential-issue'
  const INTERNAL_NOTE = 'SECRET-internal-note-body'
  const EPIC_TITLE = 'SECRET-confidential-epic-title'

  type Viewer = 'anonymous' | 'outsider' | 'guest' | 'assignee' | 'reporter' | 'author' | 'admin'
  const token = (viewer: Viewer): string | null =>
    ({
      anonymous: null,
      outsider: outsider.token,
      guest: guest.token,
      assignee: assignee.token,
      reporter: reporter.token,
      author: author.token,
      admin: ROOT_TOKEN,
    })[viewer]

  async function call(
    viewer: Viewer,
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    payload?: Record<string, unknown>,
  ) {
    return s.request(token(viewer), { method, url: `/api/v4${url}`, payload })
  }

  async function created(
    viewer: Viewer,
    url: string,
    payload: Record<string, unknown>,
  ): Promise<Record<string, unknown>> {
    const res = await call(viewer, 'POST', url, payload)
    expect(res.statusCode, res.body).toBe(201)
    return res.json()
  }

  /** A list read in one page: its raw text, its items, and what its X-Total header claims. */
  async function listing(viewer: Viewer, url: string): Promise<{ text: string; items: unknown[]; total: number }> {
    const res = await call(viewer, 'GET', `${url}${url.includes('?') ? '&' : '?'}per_page=100`)
    expect(res.statusCode, res.body).toBe(200)
    const items = res.json() as unknown[]
    return { text: res.body, items, total: Number(res.headers['x-total']) }
  }

  beforeAll(async () => {
    s = await makeServer()
    author = seedUser(s, { username: 'conf-author' })
    reporter = seedUser(s, { username: 'conf-reporter' })
    guest = seedUser(s, { username: 'conf-guest' })
    assignee = seedUser(s, { username: 'conf-assignee' })
    outsider = seedUser(s, { username: 'conf-outsider' })
    group = seedGroup(s, { path: 'conf', visibility: 'public' })
    project = seedProject(s, { namespaceId: group.id, path: 'app', visibility: 'public' })
    seedMember(s, 'Namespace', group.id, author.user.id, AccessLevel.DEVELOPER)
    seedMember(s, 'Namespace', group.id, reporter.user.id, AccessLevel.REPORTER)
    seedMember(s, 'Namespace', group.id, guest.user.id, AccessLevel.GUEST)
    seedMember(s, 'Namespace', group.id, assignee.user.id, AccessLevel.GUEST)

    const open = await created('author', `/projects/${project.id}/issues`, { title: 'An open issue' })
    const secret = await created('author', `/projects/${project.id}/issues`, {
      title: CONFIDENTIAL_TITLE,
      confidential: true,
      assignee_ids: [assignee.user.id],
      description: `Related to #${String(open.iid)}`,
    })
    openIid = open.iid as number
    secretIid = secret.iid as number
    secretId = secret.id as number
    await created('author', `/projects/${project.id}/issues/${String(secret.iid)}/notes`, {
      body: CONFIDENTIAL_COMMENT,
    })
    await created('reporter', `/projects/${project.id}/issues/${String(open.iid)}/notes`, {
      body: INTERNAL_NOTE,
      internal: true,
    })
    await created('reporter', `/groups/${group.id}/epics`, { title: EPIC_TITLE, confidential: true })
  })
  afterAll(async () => {
    await s.close()
  })

  const SECRETS: Readonly<Record<Viewer, readonly string[]>> = {
    anonymous: [],
    outsider: [],
    guest: [],
    assignee: [CONFIDENTIAL_TITLE, CONFIDENTIAL_COMMENT],
    reporter: [CONFIDENTIAL_TITLE, CONFIDENTIAL_COMMENT, INTERNAL_NOTE, EPIC_TITLE],
    author: [CONFIDENTIAL_TITLE, CONFIDENTIAL_COMMENT, INTERNAL_NOTE, EPIC_TITLE],
    admin: [CONFIDENTIAL_TITLE, CONFIDENTIAL_COMMENT, INTERNAL_NOTE, EPIC_TITLE],
  }

  /** Every secret the viewer may read is in the text, every other one is not, and X-Total counts what is shown. */
  function expectShown(
    viewer: Viewer,
    list: { text: string; items: unknown[]; total: number },
    among: readonly string[],
  ): void {
    for (const secret of among) {
      if (SECRETS[viewer].includes(secret)) expect(list.text, `${viewer} reads ${secret}`).toContain(secret)
      else expect(list.text, `${viewer} must not read ${secret}`).not.toContain(secret)
    }
    expect(list.total).toBe(list.items.length)
  }

  const ALL_VIEWERS: readonly Viewer[] = ['anonymous', 'outsider', 'guest', 'assignee', 'reporter', 'author', 'admin']
  const SIGNED_IN: readonly Viewer[] = ALL_VIEWERS.filter((v) => v !== 'anonymous')

  describe('activity events', () => {
    it.each(ALL_VIEWERS)(
      'GET /projects/:id/events shows %s only the titles and bodies they may read',
      async (viewer) => {
        expectShown(viewer, await listing(viewer, `/projects/${project.id}/events`), [
          CONFIDENTIAL_TITLE,
          CONFIDENTIAL_COMMENT,
          INTERNAL_NOTE,
        ])
      },
    )

    it.each(ALL_VIEWERS)("GET /users/:id/events shows %s only the author's events they may read", async (viewer) => {
      expectShown(viewer, await listing(viewer, `/users/${author.user.id}/events`), [
        CONFIDENTIAL_TITLE,
        CONFIDENTIAL_COMMENT,
      ])
      expectShown(viewer, await listing(viewer, `/users/${reporter.user.id}/events`), [INTERNAL_NOTE, EPIC_TITLE])
    })

    it.each(SIGNED_IN)('GET /events?scope=all shows %s only the events they may read', async (viewer) => {
      expectShown(viewer, await listing(viewer, '/events?scope=all'), [
        CONFIDENTIAL_TITLE,
        CONFIDENTIAL_COMMENT,
        INTERNAL_NOTE,
      ])
    })

    it('hides the comment events of a private snippet from readers who may not see it', async () => {
      const snippet = await created('author', `/projects/${project.id}/snippets`, {
        title: 'SECRET-private-snippet-title',
        file_name: 'a.txt',
        content: 'a',
        visibility: 'private',
      })
      await created('author', `/projects/${project.id}/snippets/${String(snippet.id)}/notes`, {
        body: 'SECRET-comment-on-private-snippet',
      })
      for (const viewer of ['anonymous', 'outsider'] as const) {
        const list = await listing(viewer, `/projects/${project.id}/events`)
        expect(list.text).not.toContain('SECRET-comment-on-private-snippet')
        expect(list.total).toBe(list.items.length)
      }
      expect((await listing('guest', `/projects/${project.id}/events`)).text).toContain(
        'SECRET-comment-on-private-snippet',
      )
    })

    it('hides the events of an issue made confidential after the fact', async () => {
      const later = await created('author', `/projects/${project.id}/issues`, {
        title: 'SECRET-made-confidential-later',
      })
      expect((await listing('guest', `/projects/${project.id}/events`)).text).toContain(
        'SECRET-made-confidential-later',
      )
      await call('admin', 'PUT', `/projects/${project.id}/issues/${String(later.iid)}`, { confidential: true })
      const list = await listing('guest', `/projects/${project.id}/events`)
      expect(list.text).not.toContain('SECRET-made-confidential-later')
      expect(list.total).toBe(list.items.length)
    })
  })

  describe('activity events of deleted items', () => {
    it('drops the events of a deleted confidential issue and its comments, for every reader', async () => {
      const issue = await created('author', `/projects/${project.id}/issues`, {
        title: 'SECRET-deleted-confidential-issue',
        confidential: true,
      })
      await created('author', `/projects/${project.id}/issues/${String(issue.iid)}/notes`, {
        body: 'SECRET-comment-on-deleted-issue',
      })
      expect((await listing('admin', `/projects/${project.id}/events`)).text).toContain(
        'SECRET-comment-on-deleted-issue',
      )
      expect((await call('admin', 'DELETE', `/projects/${project.id}/issues/${String(issue.iid)}`)).statusCode).toBe(
        204,
      )
      for (const viewer of ['guest', 'admin'] as const) {
        const list = await listing(viewer, `/projects/${project.id}/events`)
        expect(list.text).not.toContain('SECRET-deleted-confidential-issue')
        expect(list.text).not.toContain('SECRET-comment-on-deleted-issue')
      }
    })

    it('drops the event of a deleted internal note', async () => {
      const note = await created('reporter', `/projects/${project.id}/issues/${openIid}/notes`, {
        body: 'SECRET-deleted-internal-note',
        internal: true,
      })
      expect(
        (await call('reporter', 'DELETE', `/projects/${project.id}/issues/${openIid}/notes/${String(note.id)}`))
          .statusCode,
      ).toBe(204)
      for (const viewer of ['guest', 'admin'] as const) {
        expect((await listing(viewer, `/projects/${project.id}/events`)).text).not.toContain(
          'SECRET-deleted-internal-note',
        )
      }
    })
  })

  describe('activity events of features limited to members', () => {
    let limited: ProjectRow

    beforeAll(async () => {
      limited = seedProject(s, { namespaceId: group.id, path: 'limited', visibility: 'public' })
      await created('author', `/projects/${limited.id}/issues`, { title: 'SECRET-issue-of-a-members-only-tracker' })
      await created('admin', `/projects/${limited.id}/milestones`, {
        title: 'SECRET-milestone-of-members-only-features',
      })
      const commit = await call('admin', 'POST', `/projects/${limited.id}/repository/commits`, {
        branch: 'main',
        commit_message: 'SECRET-commit-of-a-members-only-repository',
        actions: [{ action: 'create', file_path: 'a.txt', content: 'a' }],
      })
      expect(commit.statusCode, commit.body).toBe(201)
      const res = await call('admin', 'PUT', `/projects/${limited.id}`, {
        issues_access_level: 'private',
        repository_access_level: 'private',
        merge_requests_access_level: 'private',
        builds_access_level: 'private',
      })
      expect(res.statusCode, res.body).toBe(200)
    })

    it.each(['anonymous', 'outsider'] as const)(
      'hides issue, milestone and push events from %s when those features are for members',
      async (viewer) => {
        const list = await listing(viewer, `/projects/${limited.id}/events`)
        expect(list.text).not.toContain('SECRET-issue-of-a-members-only-tracker')
        expect(list.text).not.toContain('SECRET-milestone-of-members-only-features')
        expect(list.text).not.toContain('SECRET-commit-of-a-members-only-repository')
        expect(list.total).toBe(list.items.length)
      },
    )

    it('shows a Guest member the issue events but not the pushes (code is for Reporters there)', async () => {
      const list = await listing('guest', `/projects/${limited.id}/events`)
      expect(list.text).toContain('SECRET-issue-of-a-members-only-tracker')
      expect(list.text).toContain('SECRET-milestone-of-members-only-features')
      expect(list.text).not.toContain('SECRET-commit-of-a-members-only-repository')
    })

    it('shows a Reporter both', async () => {
      const list = await listing('reporter', `/projects/${limited.id}/events`)
      expect(list.text).toContain('SECRET-issue-of-a-members-only-tracker')
      expect(list.text).toContain('SECRET-commit-of-a-members-only-repository')
    })

    it('hides issue and push events of features turned off from everyone, administrators included', async () => {
      const off = seedProject(s, { namespaceId: group.id, path: 'features-off', visibility: 'public' })
      await created('author', `/projects/${off.id}/issues`, { title: 'SECRET-issue-of-a-disabled-tracker' })
      const commit = await call('admin', 'POST', `/projects/${off.id}/repository/commits`, {
        branch: 'main',
        commit_message: 'SECRET-commit-of-a-disabled-repository',
        actions: [{ action: 'create', file_path: 'a.txt', content: 'a' }],
      })
      expect(commit.statusCode, commit.body).toBe(201)
      expect(
        (
          await call('admin', 'PUT', `/projects/${off.id}`, {
            issues_access_level: 'disabled',
            repository_access_level: 'disabled',
            merge_requests_access_level: 'disabled',
            builds_access_level: 'disabled',
          })
        ).statusCode,
      ).toBe(200)
      for (const viewer of ['guest', 'reporter', 'admin'] as const) {
        const list = await listing(viewer, `/projects/${off.id}/events`)
        expect(list.text).not.toContain('SECRET-issue-of-a-disabled-tracker')
        expect(list.text, viewer).not.toContain('SECRET-commit-of-a-disabled-repository')
        expect(list.total).toBe(list.items.length)
      }
    })

    it('hides the events of a private project from non-members everywhere', async () => {
      const elsewhere = seedGroup(s, { path: 'elsewhere', visibility: 'public' })
      const hidden = seedProject(s, { namespaceId: elsewhere.id, path: 'hidden', visibility: 'private' })
      seedMember(s, 'Project', hidden.id, outsider.user.id, AccessLevel.DEVELOPER)
      await created('outsider', `/projects/${hidden.id}/issues`, { title: 'SECRET-issue-of-a-private-project' })
      expect((await call('guest', 'GET', `/projects/${hidden.id}/events`)).statusCode).toBe(404)
      const list = await listing('guest', `/users/${outsider.user.id}/events`)
      expect(list.text).not.toContain('SECRET-issue-of-a-private-project')
      expect(list.total).toBe(list.items.length)
    })
  })

  describe('to-dos', () => {
    let tracker: ProjectRow
    let closed: ProjectRow

    /** The user's pending to-dos in one page, with what X-Total claims. */
    async function todos(user: SeededUser): Promise<{ text: string; items: unknown[]; total: number }> {
      const res = await s.request(user.token, { method: 'GET', url: '/api/v4/todos?per_page=100' })
      expect(res.statusCode, res.body).toBe(200)
      return { text: res.body, items: res.json() as unknown[], total: Number(res.headers['x-total']) }
    }

    beforeAll(() => {
      const todoGroup = seedGroup(s, { path: 'todo-group', visibility: 'public' })
      tracker = seedProject(s, { namespaceId: todoGroup.id, path: 'tracker', visibility: 'public' })
      closed = seedProject(s, { namespaceId: todoGroup.id, path: 'closed', visibility: 'private' })
    })

    it('hides a mention to-do once its issue is made confidential to a Guest', async () => {
      const mentioned = seedUser(s)
      seedMember(s, 'Project', tracker.id, mentioned.user.id, AccessLevel.GUEST)
      const issue = await created('admin', `/projects/${tracker.id}/issues`, {
        title: 'SECRET-todo-issue-made-confidential',
      })
      await created('admin', `/projects/${tracker.id}/issues/${String(issue.iid)}/notes`, {
        body: `@${mentioned.user.username} SECRET-todo-mention-body`,
      })
      expect((await todos(mentioned)).text).toContain('SECRET-todo-issue-made-confidential')
      await call('admin', 'PUT', `/projects/${tracker.id}/issues/${String(issue.iid)}`, { confidential: true })
      const list = await todos(mentioned)
      expect(list.text).not.toContain('SECRET-todo-issue-made-confidential')
      expect(list.text).not.toContain('SECRET-todo-mention-body')
      expect(list.total).toBe(list.items.length)
    })

    it('hides an assignment to-do once the user leaves the private project, and refuses to mark it done', async () => {
      const leaver = seedUser(s)
      seedMember(s, 'Project', closed.id, leaver.user.id, AccessLevel.REPORTER)
      await created('admin', `/projects/${closed.id}/issues`, {
        title: 'SECRET-todo-of-a-project-left',
        assignee_ids: [leaver.user.id],
      })
      const before = await todos(leaver)
      expect(before.text).toContain('SECRET-todo-of-a-project-left')
      const todoId = (before.items[0] as { id: number }).id
      expect((await call('admin', 'DELETE', `/projects/${closed.id}/members/${leaver.user.id}`)).statusCode).toBe(204)
      const after = await todos(leaver)
      expect(after.text).not.toContain('SECRET-todo-of-a-project-left')
      expect(after.total).toBe(after.items.length)
      const done = await s.request(leaver.token, { method: 'POST', url: `/api/v4/todos/${todoId}/mark_as_done` })
      expect(done.statusCode).toBe(404)
      expect(done.body).not.toContain('SECRET-todo-of-a-project-left')
    })

    it('hides a to-do quoting an internal note once its user is no longer a Reporter', async () => {
      const demoted = seedUser(s)
      seedMember(s, 'Project', tracker.id, demoted.user.id, AccessLevel.REPORTER)
      const issue = await created('admin', `/projects/${tracker.id}/issues`, {
        title: 'A public issue with an internal thread',
      })
      await created('admin', `/projects/${tracker.id}/issues/${String(issue.iid)}/notes`, {
        body: `@${demoted.user.username} SECRET-internal-mention-body`,
        internal: true,
      })
      expect((await todos(demoted)).text).toContain('SECRET-internal-mention-body')
      const res = await call('admin', 'PUT', `/projects/${tracker.id}/members/${demoted.user.id}`, {
        access_level: AccessLevel.GUEST,
      })
      expect(res.statusCode, res.body).toBe(200)
      const list = await todos(demoted)
      expect(list.text).not.toContain('SECRET-internal-mention-body')
      expect(list.total).toBe(list.items.length)
    })
  })

  describe('user search by email', () => {
    let hidden: SeededUser

    beforeAll(() => {
      hidden = seedUser(s, {
        username: 'mail-hider',
        name: 'Mail Hider',
        email: 'someone@private.example',
        public_email: 'shown@public.example',
      })
      s.app.burrow.db
        .prepare('INSERT INTO user_emails (user_id, email, created_at) VALUES (?, ?, ?)')
        .run(hidden.user.id, 'second@private.example', new Date().toISOString())
    })

    async function search(
      viewer: Viewer,
      text: string,
      extra = '',
    ): Promise<{ body: string; ids: number[]; total: string | undefined }> {
      const res = await call(viewer, 'GET', `/users?search=${encodeURIComponent(text)}${extra}`)
      expect(res.statusCode, res.body).toBe(200)
      return {
        body: res.body,
        ids: (res.json() as { id: number }[]).map((u) => u.id),
        total: res.headers['x-total'] as string | undefined,
      }
    }

    it.each(['someone@private.example', 'second@private.example'])(
      'finds nobody by the private email %s for a non-admin',
      async (email) => {
        const found = await search('outsider', email)
        expect(found.ids).toEqual([])
        expect(found.total).toBe('0')
        expect((await search('outsider', email, '&pagination=keyset&order_by=id')).ids).toEqual([])
      },
    )

    it.each(['someone@private.example', 'second@private.example'])(
      'finds the user by the private email %s for an administrator',
      async (email) => {
        expect((await search('admin', email)).ids).toEqual([hidden.user.id])
      },
    )

    it('finds no member by private email in member searches', async () => {
      seedMember(s, 'Namespace', group.id, hidden.user.id, AccessLevel.GUEST)
      for (const url of [
        `/groups/${group.id}/members`,
        `/groups/${group.id}/members/all`,
        `/projects/${project.id}/members/all`,
      ]) {
        const res = await call('outsider', 'GET', `${url}?query=someone%40private.example`)
        expect(res.statusCode, res.body).toBe(200)
        expect(res.json()).toEqual([])
        const publicly = await call('outsider', 'GET', `${url}?query=shown%40public.example`)
        expect((publicly.json() as { id: number }[]).map((m) => m.id)).toEqual([hidden.user.id])
        expect(publicly.body).not.toContain('private.example')
      }
    })

    it('finds the user by public email, name or username for anyone signed in, without the private email', async () => {
      for (const text of ['shown@public.example', 'Mail Hider', 'mail-hider']) {
        const found = await search('outsider', text)
        expect(found.ids).toEqual([hidden.user.id])
        expect(found.body).not.toContain('private.example')
      }
    })
  })

  describe('issue, epic, note and milestone lists', () => {
    it.each(ALL_VIEWERS)('issue lists and their search show %s only readable issues', async (viewer) => {
      expectShown(viewer, await listing(viewer, `/projects/${project.id}/issues?search=SECRET`), [CONFIDENTIAL_TITLE])
      if (viewer !== 'anonymous')
        expectShown(viewer, await listing(viewer, '/issues?scope=all&search=SECRET'), [CONFIDENTIAL_TITLE])
    })

    it.each(SIGNED_IN)('epic lists show %s only readable epics', async (viewer) => {
      expectShown(viewer, await listing(viewer, `/groups/${group.id}/epics?search=SECRET`), [EPIC_TITLE])
    })

    it.each(SIGNED_IN)('child epics of an epic show %s a confidential child only if they read it', async (viewer) => {
      const parent = await created('reporter', `/groups/${group.id}/epics`, {
        title: `Parent for ${viewer}`,
        confidential: true,
      })
      await created('reporter', `/groups/${group.id}/epics/${String(parent.iid)}/epics`, {
        title: `SECRET-confidential-child-${viewer}`,
        confidential: true,
      })
      const res = await call(viewer, 'GET', `/groups/${group.id}/epics/${String(parent.iid)}/epics`)
      const reads = SECRETS[viewer].includes(EPIC_TITLE)
      expect(res.statusCode).toBe(reads ? 200 : 404)
      if (reads) expect(res.body).toContain(`SECRET-confidential-child-${viewer}`)
      else expect(res.body).not.toContain('SECRET-confidential-child')
    })

    it.each(ALL_VIEWERS)(
      'notes and discussions of an issue show %s internal notes only when they may read them',
      async (viewer) => {
        expectShown(viewer, await listing(viewer, `/projects/${project.id}/issues/${openIid}/notes`), [INTERNAL_NOTE])
        expectShown(viewer, await listing(viewer, `/projects/${project.id}/issues/${openIid}/discussions`), [
          INTERNAL_NOTE,
        ])
      },
    )

    it.each(ALL_VIEWERS)(
      'the cross-reference a confidential issue left on a public one shows only to %s if they read it',
      async (viewer) => {
        const list = await listing(viewer, `/projects/${project.id}/issues/${openIid}/notes`)
        const mentions = (list.items as { body: string }[]).filter((n) => n.body === `mentioned in issue #${secretIid}`)
        expect(mentions).toHaveLength(SECRETS[viewer].includes(CONFIDENTIAL_TITLE) ? 1 : 0)
        expect(list.total).toBe(list.items.length)
      },
    )

    it.each(ALL_VIEWERS)(
      'issue statistics count the confidential issue for %s only if they read it',
      async (viewer) => {
        const res = await call(viewer, 'GET', `/projects/${project.id}/issues_statistics?search=SECRET-confidential`)
        expect(res.statusCode).toBe(200)
        const { all } = (res.json() as { statistics: { counts: { all: number } } }).statistics.counts
        expect(all).toBe(SECRETS[viewer].includes(CONFIDENTIAL_TITLE) ? 1 : 0)
      },
    )

    it.each(ALL_VIEWERS)('label counts include the confidential issue for %s only if they read it', async (viewer) => {
      const label = await created('admin', `/projects/${project.id}/labels`, {
        name: `counted-${viewer}`,
        color: '#ff0000',
      })
      await call('admin', 'PUT', `/projects/${project.id}/issues/${secretIid}`, { add_labels: `counted-${viewer}` })
      const res = await call(viewer, 'GET', `/projects/${project.id}/labels?with_counts=true&search=counted-${viewer}`)
      expect(res.statusCode, res.body).toBe(200)
      const [shown] = res.json() as { id: number; open_issues_count: number }[]
      expect(shown.id).toBe(label.id)
      expect(shown.open_issues_count).toBe(SECRETS[viewer].includes(CONFIDENTIAL_TITLE) ? 1 : 0)
    })

    it.each(SIGNED_IN)(
      'resource events of the confidential issue answer 404 to %s unless they read it',
      async (viewer) => {
        const res = await call(viewer, 'GET', `/projects/${project.id}/issues/${secretIid}/resource_state_events`)
        expect(res.statusCode).toBe(SECRETS[viewer].includes(CONFIDENTIAL_TITLE) ? 200 : 404)
      },
    )

    describe('merge requests closing a confidential issue', () => {
      let mrIid: number

      beforeAll(async () => {
        const commit = (branch: string, path: string, start?: string) =>
          call('admin', 'POST', `/projects/${project.id}/repository/commits`, {
            branch,
            ...(start ? { start_branch: start } : {}),
            commit_message: `add ${path}`,
            actions: [{ action: 'create', file_path: path, content: path }],
          })
        expect((await commit('main', 'README.md')).statusCode).toBe(201)
        expect((await commit('closing', 'fix.txt', 'main')).statusCode).toBe(201)
        const mr = await created('author', `/projects/${project.id}/merge_requests`, {
          source_branch: 'closing',
          target_branch: 'main',
          title: 'A fix',
          description: `Closes #${secretIid}`,
        })
        mrIid = mr.iid as number
      })

      it.each(SIGNED_IN)('closes_issues lists the confidential issue to %s only if they read it', async (viewer) => {
        expectShown(viewer, await listing(viewer, `/projects/${project.id}/merge_requests/${mrIid}/closes_issues`), [
          CONFIDENTIAL_TITLE,
        ])
      })
    })

    describe('GraphQL', () => {
      beforeAll(() => {
        receiveAlertPayload(s.app.burrow, project, null, { title: 'SECRET-alert-title' })
      })

      it.each(ALL_VIEWERS)('shows alert titles to %s only as a Developer or above', async (viewer) => {
        const who = token(viewer)
        const res = await s.app.inject({
          method: 'POST',
          url: '/api/graphql',
          headers: who ? { 'private-token': who } : {},
          payload: {
            query:
              '{ project(fullPath: "conf/app") { alertManagementAlerts { count nodes { title } } alertManagementAlertStatusCounts { all } } }',
          },
        })
        expect(res.statusCode).toBe(200)
        const developer = viewer === 'author' || viewer === 'admin'
        if (developer) expect(res.body).toContain('SECRET-alert-title')
        else expect(res.body).not.toContain('SECRET-alert-title')
        const data = (
          res.json() as {
            data: {
              project: { alertManagementAlerts: { count: number }; alertManagementAlertStatusCounts: { all: number } }
            }
          }
        ).data
        expect(data.project.alertManagementAlerts.count).toBe(developer ? 1 : 0)
        expect(data.project.alertManagementAlertStatusCounts.all).toBe(developer ? 1 : 0)
      })
    })

    describe('issue lists of milestones and epics', () => {
      let milestoneId: number
      let groupMilestoneId: number
      let epicIid: number

      beforeAll(async () => {
        milestoneId = (await created('admin', `/projects/${project.id}/milestones`, { title: 'v1' })).id as number
        groupMilestoneId = (await created('admin', `/groups/${group.id}/milestones`, { title: 'g1' })).id as number
        await call('admin', 'PUT', `/projects/${project.id}/issues/${secretIid}`, { milestone_id: milestoneId })
        const other = await created('author', `/projects/${project.id}/issues`, {
          title: 'SECRET-confidential-in-group-milestone',
          confidential: true,
          milestone_id: groupMilestoneId,
        })
        expect(other.milestone).not.toBeNull()
        epicIid = (await created('reporter', `/groups/${group.id}/epics`, { title: 'A public epic' })).iid as number
        await created('reporter', `/groups/${group.id}/epics/${epicIid}/issues/${secretId}`, {})
      })

      it.each(ALL_VIEWERS)(
        'a project milestone lists the confidential issue to %s only if they read it',
        async (viewer) => {
          expectShown(viewer, await listing(viewer, `/projects/${project.id}/milestones/${milestoneId}/issues`), [
            CONFIDENTIAL_TITLE,
          ])
        },
      )

      it.each(ALL_VIEWERS)(
        'a group milestone lists the confidential issue to %s only if they read it',
        async (viewer) => {
          const list = await listing(viewer, `/groups/${group.id}/milestones/${groupMilestoneId}/issues`)
          const shown = list.text.includes('SECRET-confidential-in-group-milestone')
          expect(shown).toBe(SECRETS[viewer].includes(CONFIDENTIAL_TITLE) && viewer !== 'assignee')
          expect(list.total).toBe(list.items.length)
        },
      )

      it('a project milestone lists no issue to non-members when the issues feature is for members only', async () => {
        const limited = seedProject(s, { namespaceId: group.id, path: 'members-tracker', visibility: 'public' })
        const milestone = await created('admin', `/projects/${limited.id}/milestones`, { title: 'm1' })
        await created('admin', `/projects/${limited.id}/issues`, {
          title: 'SECRET-issue-of-a-members-only-tracker-in-a-milestone',
          milestone_id: milestone.id,
        })
        const res = await call('admin', 'PUT', `/projects/${limited.id}`, { issues_access_level: 'private' })
        expect(res.statusCode, res.body).toBe(200)
        const url = `/projects/${limited.id}/milestones/${String(milestone.id)}/issues`
        for (const viewer of ['anonymous', 'outsider'] as const) {
          const list = await call(viewer, 'GET', url)
          expect(list.body, viewer).not.toContain('SECRET-issue-of-a-members-only-tracker-in-a-milestone')
          if (list.statusCode === 200) expect(list.headers['x-total'], viewer).toBe('0')
        }
        // The group's members (a Guest of the group included) still read them.
        for (const viewer of ['guest', 'admin'] as const)
          expect((await listing(viewer, url)).text, viewer).toContain(
            'SECRET-issue-of-a-members-only-tracker-in-a-milestone',
          )
      })

      it.each(SIGNED_IN)('an epic lists the confidential issue to %s only if they read it', async (viewer) => {
        expectShown(viewer, await listing(viewer, `/groups/${group.id}/epics/${epicIid}/issues`), [CONFIDENTIAL_TITLE])
      })
    })
  })
})
