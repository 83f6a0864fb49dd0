import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { makeServer, ROOT_TOKEN, type TestServer } from '../helpers/server'

// GitLab's length limits: a text over its model's limit is a 400 with GitLab's validation body and
// nothing is stored; a text at the limit is accepted (characters counted as code points).

describe('length limits on what people write', () => {
  let s: TestServer
  let projectId = 0
  let groupId = 0
  const over = (n: number): string => 'x'.repeat(n + 1)
  const tooLong = (max: number) => [`is too long (maximum is ${max} characters)`]

  beforeAll(async () => {
    s = await makeServer()
    groupId = (
      await s.request(ROOT_TOKEN, {
        method: 'POST',
        url: '/api/v4/groups',
        payload: { name: 'limits', path: 'limits' },
      })
    ).json().id
    const project = await s.request(ROOT_TOKEN, {
      method: 'POST',
      url: '/api/v4/projects',
      payload: { name: 'texts', namespace_id: groupId, initialize_with_readme: true },
    })
    projectId = project.json().id
    await s.request(ROOT_TOKEN, {
      method: 'POST',
      url: `/api/v4/projects/${projectId}/repository/branches`,
      payload: { branch: 'topic', ref: 'main' },
    })
  })
  afterAll(async () => {
    await s.close()
  })

  const call = (method: string, path: string, payload?: Record<string, unknown>) =>
    s.request(ROOT_TOKEN, { method: method as 'POST', url: `/api/v4${path}`, payload })
  const count = (table: string): number =>
    (s.app.burrow.db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n

  /** Sends the write, expects GitLab's 400 body, and checks `table` holds as many rows as before. */
  async function refused(
    table: string,
    method: string,
    path: string,
    payload: Record<string, unknown>,
    message: unknown,
  ): Promise<void> {
    const before = count(table)
    const res = await call(method, path, payload)
    expect([path, Object.keys(payload), res.statusCode, res.json()]).toEqual([
      path,
      Object.keys(payload),
      400,
      { message },
    ])
    expect(count(table)).toBe(before)
  }

  it('refuses titles over 255 characters on merge requests, milestones and snippets', async () => {
    const p = `/projects/${projectId}`
    await refused(
      'merge_requests',
      'POST',
      `${p}/merge_requests`,
      { title: over(255), source_branch: 'topic', target_branch: 'main' },
      { title: tooLong(255) },
    )
    await refused('milestones', 'POST', `${p}/milestones`, { title: over(255) }, { title: tooLong(255) })
    await refused('milestones', 'POST', `/groups/${groupId}/milestones`, { title: over(255) }, { title: tooLong(255) })
    await refused(
      'snippets',
      'POST',
      `${p}/snippets`,
      { title: over(255), file_name: 'a.txt', content: 'a' },
      { title: tooLong(255) },
    )
  })

  it('refuses descriptions over 1,048,576 characters on merge requests, milestones and snippets', async () => {
    const p = `/projects/${projectId}`
    const long = over(1_048_576)
    await refused(
      'merge_requests',
      'POST',
      `${p}/merge_requests`,
      { title: 't', description: long, source_branch: 'topic', target_branch: 'main' },
      { description: tooLong(1_048_576) },
    )
    await refused(
      'milestones',
      'POST',
      `${p}/milestones`,
      { title: 'm', description: long },
      { description: tooLong(1_048_576) },
    )
    await refused(
      'snippets',
      'POST',
      `${p}/snippets`,
      { title: 's', description: long, file_name: 'a.txt', content: 'a' },
      { description: tooLong(1_048_576) },
    )
  })

  it('refuses label names over 255 characters and descriptions over 512 KB', async () => {
    const p = `/projects/${projectId}`
    await refused('labels', 'POST', `${p}/labels`, { name: over(255), color: '#ff0000' }, { title: tooLong(255) })
    await refused(
      'labels',
      'POST',
      `/groups/${groupId}/labels`,
      { name: over(255), color: '#ff0000' },
      { title: tooLong(255) },
    )
    await refused(
      'labels',
      'POST',
      `${p}/labels`,
      { name: 'big', color: '#ff0000', description: 'é'.repeat(300_000) },
      { description: ['is too long (586 KB). The maximum size is 512 KB.'] },
    )
    const label = (
      await call('POST', `${p}/labels`, { name: 'ok', color: '#ff0000', description: 'x'.repeat(524_288) })
    ).json()
    expect(label).toMatchObject({ name: 'ok' })
    const update = await call('PUT', `${p}/labels/${label.id}`, { new_name: over(255) })
    expect([update.statusCode, update.json()]).toEqual([400, { message: { title: tooLong(255) } }])
  })

  it('refuses token names and descriptions over 255 characters', async () => {
    await refused(
      'personal_access_tokens',
      'POST',
      '/users/1/personal_access_tokens',
      { name: over(255), scopes: ['api'] },
      { name: tooLong(255) },
    )
    await refused(
      'personal_access_tokens',
      'POST',
      '/users/1/impersonation_tokens',
      { name: 'n', description: over(255), scopes: ['api'] },
      { description: tooLong(255) },
    )
    await refused(
      'personal_access_tokens',
      'POST',
      `/projects/${projectId}/access_tokens`,
      { name: over(255), scopes: ['api'] },
      { name: tooLong(255) },
    )
    expect(count('users')).toBe(1)
  })

  it('refuses project and group names over 255 characters and their descriptions over 2,000 and 255', async () => {
    await refused(
      'projects',
      'POST',
      '/projects',
      { name: 'longer', path: 'longer', description: over(2_000) },
      { description: tooLong(2_000) },
    )
    await refused(
      'namespaces',
      'POST',
      '/groups',
      { name: 'g2', path: 'g2', description: over(255) },
      { description: tooLong(255) },
    )
    const project = await call('PUT', `/projects/${projectId}`, { name: over(255) })
    expect([project.statusCode, project.json()]).toEqual([400, { message: { name: tooLong(255) } }])
    const group = await call('PUT', `/groups/${groupId}`, { name: over(255) })
    expect([group.statusCode, group.json()]).toEqual([400, { message: { name: tooLong(255) } }])
    expect((await call('GET', `/projects/${projectId}`)).json().name).toBe('texts')
  })

  it('refuses comments over 1,000,000 characters as GitLab’s notes API words it, before any quick action runs', async () => {
    const issue = (await call('POST', `/projects/${projectId}/issues`, { title: 'notes' })).json()
    const message = '400 Bad request - Note {:note=>["is too long (maximum is 1000000 characters)"]}'
    await refused(
      'notes',
      'POST',
      `/projects/${projectId}/issues/${issue.iid}/notes`,
      { body: `/close\n${over(1_000_000)}` },
      message,
    )
    await refused(
      'notes',
      'POST',
      `/projects/${projectId}/issues/${issue.iid}/discussions`,
      { body: over(1_000_000) },
      message,
    )
    expect((await call('GET', `/projects/${projectId}/issues/${issue.iid}`)).json().state).toBe('opened')
    const note = (await call('POST', `/projects/${projectId}/issues/${issue.iid}/notes`, { body: 'short' })).json()
    const edit = await call('PUT', `/projects/${projectId}/issues/${issue.iid}/notes/${note.id}`, {
      body: over(1_000_000),
    })
    expect([edit.statusCode, edit.json()]).toEqual([400, { message }])
  })

  it('accepts a title at the limit, counting a character outside the BMP once', async () => {
    const res = await call('POST', `/projects/${projectId}/milestones`, { title: '🦊'.repeat(255) })
    expect(res.statusCode).toBe(201)
    expect([...res.json().title].length).toBe(255)
  })

  it('refuses a title of the wrong kind instead of storing its text form', async () => {
    const res = await call('POST', `/projects/${projectId}/issues`, { title: { text: 'x' } })
    expect([res.statusCode, res.json()]).toEqual([400, { error: 'title is invalid' }])
    const form = await s.request(ROOT_TOKEN, {
      method: 'POST',
      url: `/api/v4/projects/${projectId}/issues`,
      payload: 'title[a]=b',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    })
    expect([form.statusCode, form.json()]).toEqual([400, { error: 'title is invalid' }])
  })
})
