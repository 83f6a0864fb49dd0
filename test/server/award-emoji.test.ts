import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AccessLevel } from '../../src/server/platform/auth/access'
import { seedGroup, seedMember, seedProject } from '../helpers/fixtures'
import { makeServer, ROOT_TOKEN, seedUser, type SeededUser, type TestServer } from '../helpers/server'

type Json = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any

describe('award emoji on comments and snippets', () => {
  let s: TestServer
  let dev: SeededUser
  let outsider: SeededUser
  let base: string
  let groupId: number

  async function call(
    token: string | null,
    method: 'GET' | 'POST' | 'DELETE',
    url: string,
    payload?: Json,
  ): Promise<{ statusCode: number; body: Json }> {
    const res = await s.request(token, { method, url: `/api/v4${url}`, ...(payload ? { payload } : {}) })
    return { statusCode: res.statusCode, body: res.body ? (JSON.parse(res.body) as Json) : {} }
  }
  const awardsOfNote = (noteId: number): number =>
    (
      s.app.burrow.db
        .prepare("SELECT COUNT(*) AS n FROM award_emoji WHERE awardable_type = 'Note' AND awardable_id = ?")
        .get(noteId) as { n: number }
    ).n

  beforeAll(async () => {
    s = await makeServer()
    dev = seedUser(s)
    outsider = seedUser(s)
    const group = seedGroup(s, { visibility: 'private' })
    groupId = group.id
    const project = seedProject(s, { namespaceId: group.id, visibility: 'private' })
    seedMember(s, 'Namespace', group.id, dev.user.id, AccessLevel.DEVELOPER)
    base = `/projects/${project.id}`
    expect((await call(dev.token, 'POST', `${base}/issues`, { title: 'Awarded' })).statusCode).toBe(201)
    expect(
      (
        await call(dev.token, 'POST', `${base}/snippets`, {
          title: 'Snip',
          file_name: 'a.txt',
          content: 'x',
          visibility: 'private',
        })
      ).statusCode,
    ).toBe(201)
  })
  afterAll(async () => {
    await s.close()
  })

  it('awards, lists, shows and takes back an emoji on an issue comment', async () => {
    const note = (await call(dev.token, 'POST', `${base}/issues/1/notes`, { body: 'Nice' })).body
    const url = `${base}/issues/1/notes/${note.id}/award_emoji`
    const award = await call(dev.token, 'POST', url, { name: 'tada' })
    expect(award.statusCode).toBe(201)
    expect(award.body).toMatchObject({
      name: 'tada',
      awardable_type: 'Note',
      awardable_id: note.id,
      user: { id: dev.user.id },
    })
    expect((await call(dev.token, 'GET', url)).body.map((a: Json) => a.name)).toEqual(['tada'])
    expect((await call(dev.token, 'GET', `${url}/${award.body.id}`)).body.id).toBe(award.body.id)
    expect((await call(dev.token, 'POST', url, { name: 'tada' })).body).toEqual({
      message: '404 Award Emoji Name has already been taken Not Found',
    })
    expect((await call(dev.token, 'DELETE', `${url}/${award.body.id}`)).statusCode).toBe(204)
    expect((await call(dev.token, 'GET', url)).body).toEqual([])
  })

  it('answers 404 for a comment of another noteable and for non-members of a private project', async () => {
    const note = (await call(dev.token, 'POST', `${base}/issues/1/notes`, { body: 'Elsewhere' })).body
    expect((await call(dev.token, 'POST', `${base}/issues`, { title: 'Other' })).statusCode).toBe(201)
    expect(
      (await call(dev.token, 'POST', `${base}/issues/2/notes/${note.id}/award_emoji`, { name: 'tada' })).body,
    ).toEqual({ message: '404 Note Not Found' })
    expect((await call(dev.token, 'GET', `${base}/snippets/1/notes/${note.id}/award_emoji`)).body).toEqual({
      message: '404 Note Not Found',
    })
    expect((await call(outsider.token, 'GET', `${base}/issues/1/notes/${note.id}/award_emoji`)).statusCode).toBe(404)
  })

  it('awards emoji on merge request comments', async () => {
    const mr = s.app.burrow.db
      .prepare(
        `INSERT INTO merge_requests (iid, project_id, source_project_id, source_branch, target_branch, title, author_id, merge_status, created_at, updated_at)
                VALUES (1, ?, ?, 'f', 'main', 'MR', ?, 'unchecked', '2020-01-01T00:00:00Z', '2020-01-01T00:00:00Z')`,
      )
      .run(Number(base.split('/')[2]), Number(base.split('/')[2]), dev.user.id)
    expect(mr.changes).toBe(1)
    const note = (await call(dev.token, 'POST', `${base}/merge_requests/1/notes`, { body: 'LGTM' })).body
    const award = await call(dev.token, 'POST', `${base}/merge_requests/1/notes/${note.id}/award_emoji`, {
      name: 'thumbsup',
    })
    expect(award.body).toMatchObject({ awardable_type: 'Note', awardable_id: note.id })
  })

  it('awards emoji on epic comments, naming the epic by iid as GitLab does', async () => {
    const epic = (await call(dev.token, 'POST', `/groups/${groupId}/epics`, { title: 'Roadmap' })).body
    const note = (await call(dev.token, 'POST', `/groups/${groupId}/epics/${epic.id}/notes`, { body: 'Planned' })).body
    const url = `/groups/${groupId}/epics/${epic.iid}/notes/${note.id}/award_emoji`
    expect((await call(dev.token, 'POST', url, { name: 'rocket' })).body).toMatchObject({
      name: 'rocket',
      awardable_type: 'Note',
    })
    expect((await call(dev.token, 'GET', url)).body).toHaveLength(1)
  })

  it('awards emoji on snippets and their comments', async () => {
    const snippet = `${base}/snippets/1`
    expect((await call(dev.token, 'POST', `${snippet}/award_emoji`, { name: 'heart' })).body).toMatchObject({
      awardable_type: 'Snippet',
      awardable_id: 1,
    })
    const note = (await call(dev.token, 'POST', `${snippet}/notes`, { body: 'Handy' })).body
    expect(
      (await call(dev.token, 'POST', `${snippet}/notes/${note.id}/award_emoji`, { name: 'heart' })).statusCode,
    ).toBe(201)
    expect((await call(outsider.token, 'GET', `${snippet}/award_emoji`)).statusCode).toBe(404)
  })

  it('shows and takes back one award only through its own item, and only its awarder may (401 to others, as GitLab)', async () => {
    const other = seedUser(s)
    seedMember(s, 'Namespace', groupId, other.user.id, AccessLevel.DEVELOPER)
    s.app.burrow.db
      .prepare(
        `INSERT INTO merge_requests (iid, project_id, source_project_id, source_branch, target_branch, title, author_id, merge_status, created_at, updated_at)
                VALUES (7, ?, ?, 'g', 'main', 'Awarded MR', ?, 'unchecked', '2020-01-01T00:00:00Z', '2020-01-01T00:00:00Z')`,
      )
      .run(Number(base.split('/')[2]), Number(base.split('/')[2]), dev.user.id)
    const issueNote = (await call(dev.token, 'POST', `${base}/issues/1/notes`, { body: 'Mine' })).body
    const items = [
      `${base}/issues/1`,
      `${base}/merge_requests/7`,
      `${base}/snippets/1`,
      `${base}/issues/1/notes/${issueNote.id}`,
    ]
    const elsewhere = (await call(dev.token, 'POST', `${base}/issues`, { title: 'Elsewhere' })).body
    for (const item of items) {
      const award = (await call(dev.token, 'POST', `${item}/award_emoji`, { name: 'star' })).body
      const url = `${item}/award_emoji/${award.id}`
      expect([item, (await call(other.token, 'GET', url)).body.id]).toEqual([item, award.id])
      const wrongItem = `${base}/issues/${elsewhere.iid}/award_emoji/${award.id}`
      expect([item, (await call(dev.token, 'GET', wrongItem)).body]).toEqual([
        item,
        { message: '404 Award Emoji Not Found' },
      ])
      expect([item, (await call(dev.token, 'DELETE', wrongItem)).statusCode]).toEqual([item, 404])
      expect([item, (await call(outsider.token, 'GET', url)).statusCode]).toEqual([item, 404])
      expect([item, (await call(outsider.token, 'DELETE', url)).statusCode]).toEqual([item, 404])
      expect([item, (await call(null, 'DELETE', url)).statusCode]).toEqual([item, 401])
      const taken = await call(other.token, 'DELETE', url)
      expect([item, taken.statusCode, taken.body]).toEqual([item, 401, { message: '401 Unauthorized' }])
      expect([item, (await call(dev.token, 'GET', url)).statusCode]).toEqual([item, 200])
      expect([item, (await call(dev.token, 'DELETE', url)).statusCode]).toEqual([item, 204])
      expect([item, (await call(dev.token, 'GET', url)).statusCode]).toEqual([item, 404])
    }
  })

  it('deletes a comment’s award emoji with the comment, and with its issue', async () => {
    const one = (await call(dev.token, 'POST', `${base}/issues/1/notes`, { body: 'Goes' })).body
    await call(dev.token, 'POST', `${base}/issues/1/notes/${one.id}/award_emoji`, { name: 'wave' })
    expect(awardsOfNote(one.id)).toBe(1)
    expect((await call(dev.token, 'DELETE', `${base}/issues/1/notes/${one.id}`)).statusCode).toBe(204)
    expect(awardsOfNote(one.id)).toBe(0)
    const two = (await call(dev.token, 'POST', `${base}/issues/1/notes`, { body: 'Stays until the issue goes' })).body
    await call(dev.token, 'POST', `${base}/issues/1/notes/${two.id}/award_emoji`, { name: 'wave' })
    expect((await call(ROOT_TOKEN, 'DELETE', `${base}/issues/1`)).statusCode).toBe(204)
    expect(awardsOfNote(two.id)).toBe(0)
  })
})
