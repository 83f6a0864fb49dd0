import { Gitlab } from '@gitbeaker/rest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AccessLevel } from '../../src/server/platform/auth/access'
import type { ProjectRow } from '../../src/server/platform/db/rows'
import { seedGroup, seedMember, seedProject } from '../helpers/fixtures'
import { commitFiles, makeWorkRepo, remoteUrl, sh } from '../helpers/git'
import { withPythonGitlab } from '../helpers/python-gitlab'
import { seedUser, startServer, type ListeningServer, type SeededUser } from '../helpers/server'

type Json = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any

/** The merge request list parameters as python-gitlab and @gitbeaker/rest send them. */
describe('merge request list parameters over the wire', () => {
  let s: ListeningServer
  let project: ProjectRow
  let author: SeededUser
  let reviewer: SeededUser

  beforeAll(async () => {
    s = await startServer()
    const group = seedGroup(s, { path: 'wire-mr-filters', visibility: 'private' })
    project = seedProject(s, { namespaceId: group.id, path: 'app', visibility: 'private' })
    author = seedUser(s, { username: 'mr_author' })
    reviewer = seedUser(s, { username: 'mr_reviewer' })
    seedMember(s, 'Namespace', group.id, author.user.id, AccessLevel.DEVELOPER)
    seedMember(s, 'Namespace', group.id, reviewer.user.id, AccessLevel.DEVELOPER)
    const work = makeWorkRepo()
    const url = remoteUrl(s.url, 'wire-mr-filters/app', author.token)
    commitFiles(work, { 'README.md': 'hello\n' }, 'Initial commit')
    await sh(work, 'push', '--quiet', url, 'main')
    for (const branch of ['api-change', 'ui-change', 'docs-change']) {
      await sh(work, 'checkout', '--quiet', '-B', branch, 'main')
      commitFiles(work, { [`${branch}.txt`]: `${branch}\n` }, `Add ${branch}`)
      await sh(work, 'push', '--quiet', url, branch)
    }
    const api = new Gitlab({ host: s.url, token: author.token })
    const asReviewer = new Gitlab({ host: s.url, token: reviewer.token })
    await api.MergeRequests.create(project.id, 'api-change', 'main', 'API change', {
      labels: 'backend',
      reviewerIds: [reviewer.user.id],
      description: 'touches the API',
    })
    await api.MergeRequests.create(project.id, 'ui-change', 'main', 'Draft: UI change', {
      labels: 'frontend',
      assigneeIds: [reviewer.user.id],
    })
    const docs = await api.MergeRequests.create(project.id, 'docs-change', 'main', 'Docs change', { labels: 'docs' })
    await asReviewer.MergeRequestApprovals.approve(project.id, docs.iid)
    await asReviewer.MergeRequestAwardEmojis.award(project.id, docs.iid, 'thumbsup')
  })
  afterAll(async () => {
    await s.close()
  })

  it('python-gitlab', async () => {
    const r = await withPythonGitlab<Record<string, unknown>>(
      s.url,
      { private_token: reviewer.token },
      `
p = gl.projects.get(${project.id}, lazy=True)
def titles(**kw):
    return sorted(m.title for m in p.mergerequests.list(get_all=True, **kw))
simple = p.mergerequests.list(get_all=True, view='simple', source_branch='api-change')[0].attributes
out({
  'reviewer': titles(reviewer_username='mr_reviewer'),
  'reviewer_none': titles(reviewer_id='None'),
  'wip_yes': titles(wip='yes'),
  'wip_no': titles(wip='no'),
  'not_labels': titles(**{'not': {'labels': 'docs'}}),
  'approved_by': titles(approved_by_ids=[${reviewer.user.id}]),
  'reaction': titles(my_reaction_emoji='thumbsup'),
  'search_desc': titles(search='API', **{'in': 'description'}),
  'target': titles(target_branch='main', labels='frontend'),
  'assigned_to_me': sorted(m.title for m in gl.mergerequests.list(get_all=True, scope='assigned_to_me')),
  'created_by_me': sorted(m.title for m in gl.mergerequests.list(get_all=True)),
  'simple_keys': sorted(simple.keys()),
})
`,
    )
    expect(r).toEqual({
      reviewer: ['API change'],
      reviewer_none: ['Docs change', 'Draft: UI change'],
      wip_yes: ['Draft: UI change'],
      wip_no: ['API change', 'Docs change'],
      not_labels: ['API change', 'Draft: UI change'],
      approved_by: ['Docs change'],
      reaction: ['Docs change'],
      search_desc: ['API change'],
      target: ['Draft: UI change'],
      assigned_to_me: ['Draft: UI change'],
      created_by_me: [],
      simple_keys: ['created_at', 'description', 'id', 'iid', 'project_id', 'state', 'title', 'updated_at', 'web_url'],
    })
  })

  it('@gitbeaker/rest', async () => {
    const api = new Gitlab({ host: s.url, token: author.token })
    const titles = async (options: Json): Promise<string[]> =>
      ((await api.MergeRequests.all({ projectId: project.id, ...options })) as Json[])
        .map((m) => m.title as string)
        .sort()
    expect(await titles({ reviewerId: reviewer.user.id })).toEqual(['API change'])
    expect(await titles({ assigneeId: 'Any' })).toEqual(['Draft: UI change'])
    expect(await titles({ labels: 'backend', state: 'opened', orderBy: 'updated_at', sort: 'asc' })).toEqual([
      'API change',
    ])
    expect(await titles({ not: { labels: 'backend' }, wip: 'no' })).toEqual(['Docs change'])
    expect(await titles({ approvedByIds: [reviewer.user.id] })).toEqual(['Docs change'])
    expect(
      (
        (await api.MergeRequests.all({
          projectId: project.id,
          withLabelsDetails: true,
          sourceBranch: 'docs-change',
        })) as Json[]
      )[0].labels[0],
    ).toMatchObject({ name: 'docs' })
    await expect(api.MergeRequests.all({ approvedByIds: [1, 2, 3, 4, 5, 6] })).rejects.toThrow(
      'approved_by_ids should have at most 5 items',
    )
    await expect(api.MergeRequests.all({ reviewerId: 1, reviewerUsername: 'x' })).rejects.toThrow(
      'reviewer_id, reviewer_username are mutually exclusive',
    )
    expect((await api.MergeRequests.all({ scope: 'created_by_me' })).length).toBe(3)
  })
})
