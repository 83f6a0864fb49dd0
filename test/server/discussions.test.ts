import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { AccessLevel } from '../../src/server/platform/auth/access'
import type { ProjectRow } from '../../src/server/platform/db/rows'
import { insertSnippet } from '../../src/server/modules/snippets/queries'
import { seedMember, seedProject } from '../helpers/fixtures'
import { makeServer, seedUser, type SeededUser, type TestServer } from '../helpers/server'

let s: TestServer
let owner: SeededUser
let dev: SeededUser
let other: SeededUser
let project: ProjectRow
let base: string

beforeEach(async () => {
  s = await makeServer()
  owner = seedUser(s)
  dev = seedUser(s)
  other = seedUser(s)
  project = seedProject(s, { ownerId: owner.user.id, visibility: 'public' })
  seedMember(s, 'Project', project.id, dev.user.id, AccessLevel.DEVELOPER)
  seedMember(s, 'Project', project.id, other.user.id, AccessLevel.DEVELOPER)
  const snippet = insertSnippet(s.app.burrow.db, {
    projectId: project.id,
    authorId: dev.user.id,
    title: 'Snip',
    description: null,
    fileName: 'a',
    content: 'x',
    visibility: 'public',
  })
  base = `/api/v4/projects/${project.id}/snippets/${snippet.id}`
})
afterEach(async () => s.close())

describe('snippet discussions', () => {
  it('starts a thread: individual_note false, note type DiscussionNote, 40-hex id', async () => {
    const res = await s.request(dev.token, { method: 'POST', url: `${base}/discussions`, payload: { body: 'thread' } })
    expect(res.statusCode).toBe(201)
    const d = res.json()
    expect(d.id).toMatch(/^[0-9a-f]{40}$/)
    expect(d.individual_note).toBe(false)
    expect(d.notes).toHaveLength(1)
    expect(d.notes[0]).toMatchObject({ type: 'DiscussionNote', body: 'thread', noteable_type: 'Snippet' })
  })

  it('lists a plain comment as an individual discussion with a null-typed note', async () => {
    await s.request(dev.token, { method: 'POST', url: `${base}/notes`, payload: { body: 'plain' } })
    await s.request(dev.token, { method: 'POST', url: `${base}/discussions`, payload: { body: 'thread' } })
    const res = await s.request(dev.token, { method: 'GET', url: `${base}/discussions` })
    expect(res.headers['x-total']).toBe('2')
    expect(
      res
        .json()
        .map((d: { individual_note: boolean; notes: { type: string | null }[] }) => [
          d.individual_note,
          d.notes[0].type,
        ]),
    ).toEqual([
      [true, null],
      [false, 'DiscussionNote'],
    ])
  })

  it('turns an individual comment into a thread when someone replies', async () => {
    const note = (
      await s.request(dev.token, { method: 'POST', url: `${base}/notes`, payload: { body: 'plain' } })
    ).json()
    const did = (await s.request(dev.token, { method: 'GET', url: `${base}/discussions` })).json()[0].id
    const reply = await s.request(other.token, {
      method: 'POST',
      url: `${base}/discussions/${did}/notes`,
      payload: { body: 'reply' },
    })
    expect(reply.statusCode).toBe(201)
    expect(reply.json()).toMatchObject({ type: 'DiscussionNote', body: 'reply' })
    const d = (await s.request(dev.token, { method: 'GET', url: `${base}/discussions/${did}` })).json()
    expect(d.individual_note).toBe(false)
    expect(d.notes.map((n: { id: number; type: string }) => [n.id, n.type])).toEqual([
      [note.id, 'DiscussionNote'],
      [reply.json().id, 'DiscussionNote'],
    ])
  })

  it('answers 404 Discussion Not Found for an unknown id', async () => {
    const res = await s.request(dev.token, { method: 'GET', url: `${base}/discussions/${'a'.repeat(40)}` })
    expect(res.statusCode).toBe(404)
    expect(res.json()).toEqual({ message: '404 Discussion Not Found' })
  })

  it('edits a discussion note by its author only and deletes it', async () => {
    const d = (
      await s.request(dev.token, { method: 'POST', url: `${base}/discussions`, payload: { body: 'thread' } })
    ).json()
    const noteUrl = `${base}/discussions/${d.id}/notes/${d.notes[0].id}`
    expect((await s.request(other.token, { method: 'PUT', url: noteUrl, payload: { body: 'no' } })).statusCode).toBe(
      403,
    )
    const put = await s.request(dev.token, { method: 'PUT', url: noteUrl, payload: { body: 'edited' } })
    expect(put.json()).toMatchObject({ body: 'edited', type: 'DiscussionNote' })
    expect((await s.request(dev.token, { method: 'DELETE', url: noteUrl })).statusCode).toBe(204)
    expect((await s.request(dev.token, { method: 'GET', url: `${base}/discussions/${d.id}` })).statusCode).toBe(404)
  })

  it('honours created_at on a new thread only for owners and administrators', async () => {
    const past = '2021-05-06T07:08:09.000Z'
    const mine = (
      await s.request(owner.token, {
        method: 'POST',
        url: `${base}/discussions`,
        payload: { body: 'a', created_at: past },
      })
    ).json()
    expect(mine.notes[0].created_at).toBe(past)
    const theirs = (
      await s.request(dev.token, {
        method: 'POST',
        url: `${base}/discussions`,
        payload: { body: 'b', created_at: past },
      })
    ).json()
    expect(theirs.notes[0].created_at).not.toBe(past)
  })
})
