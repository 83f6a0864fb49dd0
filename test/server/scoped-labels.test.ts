import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { NamespaceRow, ProjectRow } from '../../src/server/platform/db/rows'
import { seedGroup, seedProject } from '../helpers/fixtures'
import { commitFiles, makeWorkRepo, remoteUrl, sh } from '../helpers/git'
import { ROOT_TOKEN, startServer, type ListeningServer } from '../helpers/server'

type Json = Record<string, unknown>

// Burrow Server reports an enterprise edition, where GitLab keeps one label per scope (`key::value`).
describe('scoped labels are exclusive', () => {
  let s: ListeningServer
  let group: NamespaceRow
  let project: ProjectRow

  const api = async (method: 'POST' | 'PUT', url: string, payload: Json): Promise<Json> => {
    const res = await s.request(ROOT_TOKEN, { method, url: `/api/v4${url}`, payload })
    expect(res.statusCode, res.body).toBeLessThan(300)
    return res.json() as Json
  }
  const labelsOf = (item: Json): string[] => [...(item.labels as string[])].sort()

  beforeAll(async () => {
    s = await startServer()
    group = seedGroup(s, { path: 'scoped', visibility: 'private' })
    project = seedProject(s, { namespaceId: group.id, path: 'app' })
    const work = makeWorkRepo()
    commitFiles(work, { 'README.md': '# app\n' }, 'Initial commit')
    const url = remoteUrl(s.url, `${group.full_path}/app`, ROOT_TOKEN)
    await sh(work, 'push', '--quiet', url, 'main')
    await sh(work, 'checkout', '--quiet', '-b', 'feature', 'main')
    commitFiles(work, { 'feature.txt': 'f\n' }, 'Add feature')
    await sh(work, 'push', '--quiet', url, 'feature')
  })
  afterAll(async () => {
    await s.close()
  })

  it('replaces the issue label of the same scope when add_labels adds another', async () => {
    const issue = await api('POST', `/projects/${project.id}/issues`, {
      title: 'Scoped',
      labels: 'workflow::blocked,bug,priority::1',
    })
    const updated = await api('PUT', `/projects/${project.id}/issues/${issue.iid as number}`, {
      add_labels: 'workflow::ready',
    })
    expect(labelsOf(updated)).toEqual(['bug', 'priority::1', 'workflow::ready'])
  })

  it('keeps the last of two labels of one scope given at creation', async () => {
    const issue = await api('POST', `/projects/${project.id}/issues`, {
      title: 'Two at once',
      labels: 'workflow::a,workflow::b',
    })
    expect(labelsOf(issue)).toEqual(['workflow::b'])
  })

  it('treats nested scopes by the part before the last ::, and leaves plain labels alone', async () => {
    const issue = await api('POST', `/projects/${project.id}/issues`, {
      title: 'Nested',
      labels: 'team::api::review,team::web::review,plain',
    })
    const updated = await api('PUT', `/projects/${project.id}/issues/${issue.iid as number}`, {
      add_labels: 'team::api::done,other',
    })
    expect(labelsOf(updated)).toEqual(['other', 'plain', 'team::api::done', 'team::web::review'])
  })

  it('does not drop labels of a scope the change adds nothing to', async () => {
    // Two labels of one scope can predate the rule (imported data): an unrelated change keeps both.
    const issue = await api('POST', `/projects/${project.id}/issues`, { title: 'Legacy', labels: 'stage::one' })
    const stageTwo = (await api('POST', `/projects/${project.id}/labels`, { name: 'stage::two', color: '#ff0000' })).id
    s.app.burrow.db
      .prepare(
        "INSERT INTO label_links (label_id, target_type, target_id, created_at) VALUES (?, 'Issue', ?, datetime('now'))",
      )
      .run(stageTwo, issue.id)
    const updated = await api('PUT', `/projects/${project.id}/issues/${issue.iid as number}`, {
      add_labels: 'unrelated',
    })
    expect(labelsOf(updated)).toEqual(['stage::one', 'stage::two', 'unrelated'])
  })

  it('replaces the merge request label of the same scope, on creation and on update', async () => {
    const mr = await api('POST', `/projects/${project.id}/merge_requests`, {
      source_branch: 'feature',
      target_branch: 'main',
      title: 'Feature',
      labels: 'review::one,review::two',
    })
    expect(labelsOf(mr)).toEqual(['review::two'])
    const updated = await api('PUT', `/projects/${project.id}/merge_requests/${mr.iid as number}`, {
      add_labels: 'review::three',
    })
    expect(labelsOf(updated)).toEqual(['review::three'])
  })

  it('replaces the epic label of the same scope, on creation and on update', async () => {
    const epic = await api('POST', `/groups/${group.id}/epics`, { title: 'Epic', labels: 'phase::a,phase::b,x' })
    expect(labelsOf(epic)).toEqual(['phase::b', 'x'])
    const updated = await api('PUT', `/groups/${group.id}/epics/${epic.iid as number}`, { add_labels: 'phase::c' })
    expect(labelsOf(updated)).toEqual(['phase::c', 'x'])
  })
})
