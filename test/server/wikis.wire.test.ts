import { Gitlab } from '@gitbeaker/rest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ProjectRow } from '../../src/server/platform/db/rows'
import { seedGroup, seedMember, seedProject } from '../helpers/fixtures'
import { withPythonGitlab } from '../helpers/python-gitlab'
import { seedUser, startServer, type ListeningServer, type SeededUser } from '../helpers/server'

describe('wikis over the wire', () => {
  let s: ListeningServer
  let project: ProjectRow
  let maintainer: SeededUser

  beforeAll(async () => {
    s = await startServer()
    const group = seedGroup(s, { path: 'wire-wiki', visibility: 'public' })
    project = seedProject(s, { namespaceId: group.id, path: 'app', visibility: 'public' })
    maintainer = seedUser(s, { username: 'wire_wiki_maintainer' })
    seedMember(s, 'Namespace', group.id, maintainer.user.id, 40)
  })
  afterAll(async () => {
    await s.close()
  })

  it('python-gitlab creates, lists, reads, edits and deletes wiki pages', async () => {
    const result = await withPythonGitlab<{
      created: { slug: string; title: string; format: string }
      listed: string[]
      content: string
      edited: string
      after_delete: string[]
    }>(
      s.url,
      { private_token: maintainer.token },
      `
project = gl.projects.get(${project.id}, lazy=True)
page = project.wikis.create({'title': 'Getting started', 'content': 'Install the app.'})
created = {'slug': page.slug, 'title': page.title, 'format': page.format}
project.wikis.create({'title': 'FAQ', 'content': '* Why?', 'format': 'org'})
listed = [p.slug for p in project.wikis.list(get_all=True)]
content = project.wikis.get('Getting-started').content
page = project.wikis.get('Getting-started')
page.content = 'Install the app, then sign in.'
page.save()
edited = project.wikis.get('Getting-started').content
project.wikis.delete('FAQ')
after_delete = [p.slug for p in project.wikis.list(get_all=True)]
out({'created': created, 'listed': listed, 'content': content, 'edited': edited, 'after_delete': after_delete})
`,
    )
    expect(result.created).toEqual({ slug: 'Getting-started', title: 'Getting started', format: 'markdown' })
    expect(result.listed).toEqual(['FAQ', 'Getting-started'])
    expect(result.content).toBe('Install the app.')
    expect(result.edited).toBe('Install the app, then sign in.')
    expect(result.after_delete).toEqual(['Getting-started'])
  })

  it('@gitbeaker/rest creates, shows, lists with content and edits pages', async () => {
    const api = new Gitlab({ host: s.url, token: maintainer.token })
    const created = await api.ProjectWikis.create(project.id, 'Ship it.', 'Release process')
    expect(created).toMatchObject({ slug: 'Release-process', title: 'Release process', content: 'Ship it.' })
    const edited = await api.ProjectWikis.edit(project.id, 'Release-process', { title: 'Releasing' })
    expect(edited).toMatchObject({ slug: 'Releasing', content: 'Ship it.' })
    expect((await api.ProjectWikis.show(project.id, 'Releasing')).content).toBe('Ship it.')
    const all = await api.ProjectWikis.all(project.id, { withContent: true })
    expect(all.map((p) => [p.slug, p.content])).toEqual([
      ['Getting-started', 'Install the app, then sign in.'],
      ['Releasing', 'Ship it.'],
    ])
  })
})
