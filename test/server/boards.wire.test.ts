import { Gitlab } from '@gitbeaker/rest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ProjectRow } from '../../src/server/platform/db/rows'
import { seedGroup, seedMember, seedProject } from '../helpers/fixtures'
import { withPythonGitlab } from '../helpers/python-gitlab'
import { ROOT_TOKEN, seedUser, startServer, type ListeningServer, type SeededUser } from '../helpers/server'

describe('issue boards over the wire', () => {
  let s: ListeningServer
  let project: ProjectRow
  let reporter: SeededUser
  const labels: number[] = []

  beforeAll(async () => {
    s = await startServer()
    const group = seedGroup(s, { path: 'wire-boards', visibility: 'public' })
    project = seedProject(s, { namespaceId: group.id, path: 'app', visibility: 'public' })
    reporter = seedUser(s, { username: 'wire_boards_reporter' })
    seedMember(s, 'Namespace', group.id, reporter.user.id, 20)
    for (const name of ['To Do', 'Doing', 'Done']) {
      const res = await s.request(ROOT_TOKEN, {
        method: 'POST',
        url: `/api/v4/projects/${project.id}/labels`,
        payload: { name, color: '#428BCA' },
      })
      labels.push(Number(res.json().id))
    }
  })
  afterAll(async () => {
    await s.close()
  })

  it('python-gitlab creates a board, adds lists, moves one, deletes one and renames the board', async () => {
    const result = await withPythonGitlab<{
      created: { name: string; lists: unknown[] }
      lists: [string, number][]
      after_delete: string[]
      renamed: string
    }>(
      s.url,
      { private_token: reporter.token },
      `
project = gl.projects.get(${project.id}, lazy=True)
board = project.boards.create({'name': 'Development'})
created = {'name': board.name, 'lists': board.lists.list(get_all=True)}
for label_id in [${labels.join(', ')}]:
    board.lists.create({'label_id': label_id})
first = board.lists.list(get_all=True)[0]
first.position = 2
first.save()
lists = [[l.label['name'], l.position] for l in board.lists.list(get_all=True)]
board.lists.delete(board.lists.list(get_all=True)[0].id)
after_delete = [l.label['name'] for l in board.lists.list(get_all=True)]
board.name = 'Sprint'
board.save()
renamed = project.boards.get(board.id).name
out({'created': {'name': created['name'], 'lists': [l.id for l in created['lists']]}, 'lists': lists,
     'after_delete': after_delete, 'renamed': renamed})
`,
    )
    expect(result.created).toEqual({ name: 'Development', lists: [] })
    expect(result.lists).toEqual([
      ['Doing', 0],
      ['Done', 1],
      ['To Do', 2],
    ])
    expect(result.after_delete).toEqual(['Done', 'To Do'])
    expect(result.renamed).toBe('Sprint')
  })

  it('@gitbeaker/rest reads boards and lists, edits a list and removes a second board', async () => {
    const api = new Gitlab({ host: s.url, token: reporter.token })
    const [board] = await api.ProjectIssueBoards.all(project.id)
    expect(board.name).toBe('Sprint')
    const lists = await api.ProjectIssueBoards.allLists(project.id, board.id)
    expect(lists.map((l) => l.label?.name)).toEqual(['Done', 'To Do'])
    const moved = await api.ProjectIssueBoards.editList(project.id, board.id, lists[1].id, 0)
    expect(moved.position).toBe(0)
    expect((await api.ProjectIssueBoards.showList(project.id, board.id, lists[0].id)).position).toBe(1)
    const second = await api.ProjectIssueBoards.create(project.id, 'Ops')
    await api.ProjectIssueBoards.edit(project.id, second.id, { labels: 'Doing', weight: 1 })
    expect((await api.ProjectIssueBoards.show(project.id, second.id)).labels).toEqual([
      expect.objectContaining({ name: 'Doing' }),
    ])
    await api.ProjectIssueBoards.remove(project.id, second.id)
    expect((await api.ProjectIssueBoards.all(project.id)).map((b) => b.name)).toEqual(['Sprint'])
  })
})
