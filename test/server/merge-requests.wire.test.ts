import { Gitlab } from '@gitbeaker/rest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AccessLevel } from '../../src/server/platform/auth/access'
import type { ProjectRow } from '../../src/server/platform/db/rows'
import { seedGroup, seedMember, seedProject } from '../helpers/fixtures'
import { commitFiles, makeWorkRepo, remoteUrl, sh } from '../helpers/git'
import { withPythonGitlab } from '../helpers/python-gitlab'
import { seedUser, startServer, type ListeningServer, type SeededUser } from '../helpers/server'

describe('merge requests over the wire', () => {
  let s: ListeningServer
  let dev: SeededUser
  let reviewer: SeededUser
  let project: ProjectRow

  beforeAll(async () => {
    s = await startServer()
    dev = seedUser(s)
    reviewer = seedUser(s)
    const group = seedGroup(s)
    project = seedProject(s, { namespaceId: group.id, path: 'wire' })
    seedMember(s, 'Project', project.id, dev.user.id, AccessLevel.DEVELOPER)
    seedMember(s, 'Project', project.id, reviewer.user.id, AccessLevel.DEVELOPER)
    const work = makeWorkRepo()
    const url = remoteUrl(s.url, `${group.full_path}/wire`, dev.token)
    commitFiles(work, { 'README.md': 'hello\n' }, 'Initial commit')
    await sh(work, 'push', '--quiet', url, 'main')
    for (const branch of ['py-feature', 'py-rebase', 'gb-feature', 'gb-rebase']) {
      await sh(work, 'checkout', '--quiet', '-B', branch, 'main')
      commitFiles(work, { [`${branch}.txt`]: `${branch}\n` }, `Add ${branch}`)
      await sh(work, 'push', '--quiet', url, branch)
    }
  })
  afterAll(async () => {
    await s.close()
  })

  it('python-gitlab creates, lists by state and labels, approves, reads changes and closes_issues, rebases and merges', async () => {
    const result = await withPythonGitlab<{
      iid: number
      listed: number[]
      approved: boolean
      changes: string[]
      closes: unknown[]
      rebase: unknown
      state: string
    }>(
      s.url,
      { private_token: dev.token },
      `
import time
project = gl.projects.get(${project.id})
mr = project.mergerequests.create({'source_branch': 'py-feature', 'target_branch': 'main', 'title': 'Python MR', 'labels': ['wire', 'py'], 'description': 'Closes #1'})
listed = [m.iid for m in project.mergerequests.list(state='opened', labels=['wire'])]
other = gitlab.Gitlab(os.environ["GL_URL"], private_token=${JSON.stringify(reviewer.token)})
other_mr = other.projects.get(${project.id}, lazy=True).mergerequests.get(mr.iid)
other_mr.approve()
approved = project.mergerequests.get(mr.iid).approvals.get().approved
changes = [c['new_path'] for c in mr.changes()['changes']]
closes = list(mr.closes_issues())
rb = project.mergerequests.create({'source_branch': 'py-rebase', 'target_branch': 'main', 'title': 'Rebase me'})
rebase = rb.rebase()
for i in range(200):
    if not project.mergerequests.get(rb.iid, include_rebase_in_progress=True).rebase_in_progress:
        break
    time.sleep(0.02)
mr.merge()
out({'iid': mr.iid, 'listed': listed, 'approved': approved, 'changes': changes, 'closes': closes, 'rebase': rebase, 'state': project.mergerequests.get(mr.iid).state})
`,
    )
    expect(result).toEqual({
      iid: 1,
      listed: [1],
      approved: true,
      changes: ['py-feature.txt'],
      closes: [],
      rebase: { rebase_in_progress: true },
      state: 'merged',
    })
  })

  it('@gitbeaker/rest creates, lists, shows, approves, rebases and merges', async () => {
    const api = new Gitlab({ host: s.url, token: dev.token })
    const other = new Gitlab({ host: s.url, token: reviewer.token })
    const created = await api.MergeRequests.create(project.id, 'gb-feature', 'main', 'Gitbeaker MR', { labels: 'gb' })
    expect(created).toMatchObject({ iid: 3, state: 'opened', labels: ['gb'] })
    const all = await api.MergeRequests.all({ projectId: project.id, state: 'opened' })
    expect(all.map((m) => m.iid)).toContain(3)
    const shown = await api.MergeRequests.show(project.id, 3)
    expect(shown).toMatchObject({ iid: 3, title: 'Gitbeaker MR', source_branch: 'gb-feature' })
    const approval = await other.MergeRequestApprovals.approve(project.id, 3)
    expect(approval).toMatchObject({ approved_by: [{ user: { id: reviewer.user.id } }] })
    const rb = await api.MergeRequests.create(project.id, 'gb-rebase', 'main', 'Gitbeaker rebase')
    expect(await api.MergeRequests.rebase(project.id, rb.iid)).toEqual({ rebase_in_progress: true })
    const merged = await api.MergeRequests.merge(project.id, 3)
    expect(merged).toMatchObject({ state: 'merged', merged_by: { id: dev.user.id } })
  })
})
