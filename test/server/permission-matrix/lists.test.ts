import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { seedProject } from '../../helpers/fixtures'
import { canSee } from './matrix'
import { ACTORS, buildWorld, VISIBILITIES, type World } from './world'

let world: World

/**
 * Every container's project and group carry its visibility in their names (`matrix-private`…);
 * each also holds an issue, a group milestone, a group label and a snippet named after it, so a
 * list that shows any of them to the wrong actor shows the marker.
 */
const marker = (visibility: string): string => `matrix-${visibility}`

/** A private project inside the public group: its group's members inherit it, nobody else sees it. */
const HIDDEN_IN_PUBLIC = 'matrix-hidden-in-public'

beforeAll(async () => {
  world = await buildWorld()
  const hidden = seedProject(world.server, {
    namespaceId: world.containers.public.group.id,
    path: HIDDEN_IN_PUBLIC,
    visibility: 'private',
  })
  await world.admin('POST', `/projects/${hidden.id}/issues`, { title: `Issue of ${HIDDEN_IN_PUBLIC}` })
  await world.admin('POST', `/projects/${hidden.id}/milestones`, { title: `Milestone of ${HIDDEN_IN_PUBLIC}` })
  for (const visibility of VISIBILITIES) {
    const c = world.containers[visibility]
    await world.admin('POST', `/projects/${c.project.id}/issues`, { title: `Issue of ${marker(visibility)}` })
    await world.admin('POST', `/groups/${c.group.id}/milestones`, { title: `Milestone of ${marker(visibility)}` })
    await world.admin('POST', `/groups/${c.group.id}/labels`, { name: `label-${marker(visibility)}`, color: '#ff0000' })
    await world.admin('POST', `/projects/${c.project.id}/snippets`, {
      title: `Snippet of ${marker(visibility)}`,
      file_name: 'a.txt',
      content: 'a',
      visibility,
    })
  }
})
afterAll(async () => world.close())

/** Lists across containers: each may only show what its caller can see (404s and 401s pass too). */
const LISTS = [
  '/projects?per_page=100',
  '/projects?per_page=100&simple=true',
  '/projects?search=matrix&per_page=100',
  '/groups?per_page=100',
  '/groups?all_available=true&per_page=100',
  '/namespaces?per_page=100',
  '/issues?scope=all&per_page=100',
  '/issues_statistics?scope=all',
  '/merge_requests?scope=all&per_page=100',
  '/users/{owner}/projects?per_page=100',
  '/users/{owner}/starred_projects?per_page=100',
  '/groups/{publicGroup}/subgroups',
  '/groups/{publicGroup}/projects?include_subgroups=true&with_shared=true',
  '/groups/{publicGroup}/labels?include_descendant_groups=true',
  '/groups/{publicGroup}/issues?per_page=100',
  '/groups/{publicGroup}/issues_statistics',
  '/groups/{publicGroup}/merge_requests?per_page=100',
  '/groups/{publicGroup}/milestones?include_descendants=true',
  '/groups/{publicGroup}?with_projects=true',
  '/projects/{publicProject}/milestones?include_parent_milestones=true',
  '/search?scope=projects&search=matrix&per_page=100',
  '/search?scope=issues&search=matrix&per_page=100',
  '/search?scope=merge_requests&search=matrix&per_page=100',
  '/search?scope=milestones&search=matrix&per_page=100',
  '/search?scope=notes&search=matrix&per_page=100',
  '/search?scope=blobs&search=matrix&per_page=100',
  '/groups/{publicGroup}/search?scope=projects&search=matrix&per_page=100',
  '/groups/{publicGroup}/search?scope=issues&search=matrix&per_page=100',
  '/groups/{publicGroup}/search?scope=milestones&search=matrix&per_page=100',
]

describe('lists across containers', () => {
  it.each(LISTS)('%s shows no container its caller cannot see', async (template) => {
    const path = template
      .replace('{owner}', String(world.userIds.owner))
      .replace('{publicGroup}', String(world.containers.public.group.id))
      .replace('{publicProject}', String(world.containers.public.project.id))
    const leaks: string[] = []
    for (const actor of ACTORS) {
      const res = await world.call(actor, 'GET', path)
      for (const visibility of VISIBILITIES) {
        if (!canSee(actor, visibility) && res.body.includes(marker(visibility)))
          leaks.push(`${actor} sees ${marker(visibility)} (${res.statusCode})`)
      }
      if (!canSee(actor, 'private') && res.body.includes(HIDDEN_IN_PUBLIC))
        leaks.push(`${actor} sees ${HIDDEN_IN_PUBLIC} (${res.statusCode})`)
    }
    expect(leaks, leaks.join('\n')).toEqual([])
  })

  it.each(['/issues?scope=all&per_page=100', '/search?scope=issues&search=matrix&per_page=100'])(
    'the markers are there for whoever may see them in %s (the check above can fail)',
    async (path) => {
      const res = await world.call('owner', 'GET', path)
      for (const visibility of VISIBILITIES) expect(res.body).toContain(marker(visibility))
      expect(res.body).toContain(HIDDEN_IN_PUBLIC)
    },
  )
})
