import { describe, expect, it } from 'vitest'
import { matchedLine, serverHit, type ServerSearchScope } from '../../../src/renderer/lib/server-search'

/* Where each search API result opens, and what a result the app cannot read becomes. */

const path = (id: number): string => (id === 7 ? 'kestrel/api' : `project ${id}`)
const hit = (scope: ServerSearchScope, result: unknown, search = 'needle') =>
  serverHit({ accountId: 'acc', scope, search }, result, path)

describe('server search results', () => {
  it('a code result opens its file at the line holding the text, not at its chunk’s first context line', () => {
    expect(matchedLine('\nOne\nthe NEEDLE here\n', 2, 'needle')).toBe(4)
    expect(matchedLine('nothing\n', 9, 'needle')).toBe(9)
    expect(
      hit('blobs', { path: 'docs/a.md', ref: 'main', project_id: 7, startline: 2, data: '\nx\nneedle\n' }),
    ).toMatchObject({
      title: 'docs/a.md',
      detail: 'kestrel/api · main · line 4',
      snippet: 'x\nneedle',
      to: {
        name: 'repository-blob',
        params: { account: 'acc', projectId: '7' },
        query: { ref: 'main', path: 'docs/a.md', line: '4' },
      },
    })
  })

  it('commits open the commit, comments their issue or merge request, wiki blobs their page; users have no page here', () => {
    expect(hit('commits', { id: 'a'.repeat(40), short_id: 'aaaaaaaa', title: 'Fix', project_id: 7 })?.to).toEqual({
      name: 'repository-commit',
      params: { account: 'acc', projectId: '7', sha: 'a'.repeat(40) },
    })
    expect(
      hit('notes', {
        id: 3,
        body: 'hi',
        noteable_type: 'MergeRequest',
        noteable_iid: 4,
        project_id: 7,
        author: { name: 'Ann' },
      }),
    ).toMatchObject({ title: 'Comment by Ann on kestrel/api!4', to: '/a/acc/projects/7/merge_requests/4' })
    expect(hit('notes', { id: 3, body: 'hi', noteable_type: 'Snippet', project_id: 7 })?.to).toBeNull()
    expect(hit('wiki_blobs', { path: 'How-to/Deploy.md', project_id: 7, data: 'x' })?.to).toEqual({
      name: 'wiki',
      query: { account: 'acc', project: '7', page: 'How-to/Deploy' },
    })
    expect(hit('users', { id: 2, username: 'ann', name: 'Ann' })).toMatchObject({
      title: 'Ann',
      detail: '@ann',
      to: null,
    })
  })

  it('a result without the fields its place needs is left out rather than shown broken', () => {
    expect(hit('blobs', { ref: 'main' })).toBeNull()
    expect(hit('commits', 'not an object')).toBeNull()
    expect(hit('projects', { id: 'x' })).toBeNull()
  })
})
