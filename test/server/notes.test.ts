import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { AccessLevel } from '../../src/server/platform/auth/access'
import type { ProjectRow } from '../../src/server/platform/db/rows'
import { insertSnippet } from '../../src/server/modules/snippets/queries'
import { seedMember, seedProject } from '../helpers/fixtures'
import { makeServer, ROOT_TOKEN, seedUser, type SeededUser, type TestServer } from '../helpers/server'

let s: TestServer
let owner: SeededUser
let dev: SeededUser
let maintainer: SeededUser
let guest: SeededUser
let project: ProjectRow
let url: string

beforeEach(async () => {
  s = await makeServer()
  owner = seedUser(s)
  dev = seedUser(s)
  maintainer = seedUser(s)
  guest = seedUser(s)
  project = seedProject(s, { ownerId: owner.user.id, visibility: 'public' })
  seedMember(s, 'Project', project.id, dev.user.id, AccessLevel.DEVELOPER)
  seedMember(s, 'Project', project.id, maintainer.user.id, AccessLevel.MAINTAINER)
  seedMember(s, 'Project', project.id, guest.user.id, AccessLevel.GUEST)
  const snippet = insertSnippet(s.app.burrow.db, {
    projectId: project.id,
    authorId: dev.user.id,
    title: 'Snip',
    description: null,
    fileName: 'a',
    content: 'x',
    visibility: 'public',
  })
  url = `/api/v4/projects/${project.id}/snippets/${snippet.id}/notes`
})
afterEach(async () => s.close())

function post(token: string | null, payload: Record<string, unknown>) {
  return s.request(token, { method: 'POST', url, payload })
}

describe('snippet notes', () => {
  it('creates a note and returns the Note entity as an individual comment', async () => {
    const res = await post(guest.token, { body: 'hello' })
    expect(res.statusCode).toBe(201)
    expect(res.json()).toMatchObject({
      type: null,
      body: 'hello',
      attachment: null,
      system: false,
      noteable_type: 'Snippet',
      project_id: project.id,
      resolvable: false,
      confidential: false,
      internal: false,
      noteable_iid: null,
      author: { id: guest.user.id },
    })
    expect(res.json()).not.toHaveProperty('commands_changes')
  })

  it('lists notes newest first by default, ascending on sort=asc, paginated', async () => {
    for (const body of ['one', 'two', 'three']) await post(dev.token, { body })
    const desc = await s.request(dev.token, { method: 'GET', url })
    expect(desc.json().map((n: { body: string }) => n.body)).toEqual(['three', 'two', 'one'])
    expect(desc.headers['x-total']).toBe('3')
    const asc = await s.request(dev.token, { method: 'GET', url: `${url}?sort=asc&order_by=updated_at&per_page=2` })
    expect(asc.json().map((n: { body: string }) => n.body)).toEqual(['one', 'two'])
  })

  it('gets a single note and answers 404 Note Not Found for another noteable’s id', async () => {
    const id = (await post(dev.token, { body: 'x' })).json().id
    expect((await s.request(dev.token, { method: 'GET', url: `${url}/${id}` })).json().body).toBe('x')
    const miss = await s.request(dev.token, { method: 'GET', url: `${url}/${id + 99}` })
    expect(miss.statusCode).toBe(404)
    expect(miss.json()).toEqual({ message: '404 Note Not Found' })
  })

  it('answers 400 body is missing without a body and 401 for anonymous callers', async () => {
    expect((await post(dev.token, {})).json()).toEqual({ error: 'body is missing' })
    expect((await post(null, { body: 'x' })).statusCode).toBe(401)
  })

  it('lets only the author edit a note: a Maintainer gets 403', async () => {
    const id = (await post(dev.token, { body: 'x' })).json().id
    expect(
      (await s.request(maintainer.token, { method: 'PUT', url: `${url}/${id}`, payload: { body: 'y' } })).statusCode,
    ).toBe(403)
    const res = await s.request(dev.token, { method: 'PUT', url: `${url}/${id}`, payload: { body: 'y' } })
    expect(res.statusCode).toBe(200)
    expect(res.json().body).toBe('y')
  })

  it('lets an administrator edit anyone’s note', async () => {
    const id = (await post(dev.token, { body: 'x' })).json().id
    expect(
      (await s.request(ROOT_TOKEN, { method: 'PUT', url: `${url}/${id}`, payload: { body: 'z' } })).json().body,
    ).toBe('z')
  })

  it('lets the author or a Maintainer delete a note, not another member', async () => {
    const id = (await post(dev.token, { body: 'x' })).json().id
    expect((await s.request(guest.token, { method: 'DELETE', url: `${url}/${id}` })).statusCode).toBe(403)
    expect((await s.request(maintainer.token, { method: 'DELETE', url: `${url}/${id}` })).statusCode).toBe(204)
    expect((await s.request(dev.token, { method: 'GET', url: `${url}/${id}` })).statusCode).toBe(404)
  })

  it('honours created_at from the project owner and ignores it from others', async () => {
    const past = '2020-01-02T03:04:05.000Z'
    expect((await post(owner.token, { body: 'x', created_at: past })).json().created_at).toBe(past)
    expect((await post(ROOT_TOKEN, { body: 'x', created_at: past })).json().created_at).toBe(past)
    expect((await post(dev.token, { body: 'x', created_at: past })).json().created_at).not.toBe(past)
  })

  it('hides internal notes from Guests and forbids Guests to create them', async () => {
    expect((await post(guest.token, { body: 'secret', internal: true })).statusCode).toBe(403)
    const id = (await post(dev.token, { body: 'secret', internal: true })).json().id
    expect((await s.request(dev.token, { method: 'GET', url: `${url}/${id}` })).json()).toMatchObject({
      internal: true,
      confidential: true,
    })
    expect((await s.request(guest.token, { method: 'GET', url: `${url}/${id}` })).statusCode).toBe(404)
    expect((await s.request(guest.token, { method: 'GET', url })).json()).toEqual([])
  })

  it('records a commented event with the note object', async () => {
    const note = (await post(dev.token, { body: 'evented' })).json()
    const events = (await s.request(dev.token, { method: 'GET', url: `/api/v4/projects/${project.id}/events` })).json()
    expect(events[0]).toMatchObject({
      action_name: 'commented on',
      target_type: 'Note',
      target_id: note.id,
      target_title: 'Snip',
      project_id: project.id,
      note: {
        id: note.id,
        body: 'evented',
        attachment: null,
        system: false,
        noteable_id: note.noteable_id,
        noteable_type: 'Snippet',
        author: { id: dev.user.id },
      },
    })
  })
})
