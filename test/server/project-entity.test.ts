import { describe, expect, it } from 'vitest'
import { withClock } from '../../src/server/platform/db/connection'
import type { ProjectWithNamespaceRow } from '../../src/server/modules/projects/queries'
import {
  FEATURE_ACCESS_DEFAULTS,
  projectEntity,
  projectEntityJson,
  type ProjectExtras,
} from '../../src/server/modules/projects/entity'

const BASE = 'http://burrow.test:8080'

function row(overrides: Partial<ProjectWithNamespaceRow> = {}): ProjectWithNamespaceRow {
  return {
    id: 7,
    namespace_id: 3,
    name: 'Alpha',
    path: 'alpha',
    description: 'A <b>',
    visibility: 'private',
    default_branch: 'main',
    archived: 0,
    repository_storage: 'default',
    topics: '["x","y"]',
    request_access_enabled: 1,
    settings: '{"merge_method":"ff"}',
    star_count: 2,
    forks_count: 0,
    creator_id: 1,
    created_at: '2024-01-01T00:00:00.000Z',
    updated_at: '2024-01-02T00:00:00.000Z',
    last_activity_at: '2024-01-03T00:00:00.000Z',
    ns_name: 'Team',
    ns_path: 'team',
    ns_kind: 'group',
    ns_full_path: 'team',
    ns_full_name: 'Team',
    ns_parent_id: null,
    ns_owner_id: null,
    ns_avatar_url: null,
    ns_visibility: 'private',
    ...overrides,
  } as ProjectWithNamespaceRow
}

describe('project entity', () => {
  it('lists every feature access level in FEATURE_ACCESS_DEFAULTS order, after can_create_merge_request_in', () => {
    const keys = Object.keys(projectEntity(row(), { baseUrl: BASE }))
    const start = keys.indexOf('can_create_merge_request_in') + 1
    expect(keys.slice(start, start + Object.keys(FEATURE_ACCESS_DEFAULTS).length)).toEqual(
      Object.keys(FEATURE_ACCESS_DEFAULTS),
    )
  })

  it('serialises a group project without owner, repository_storage, statistics or permissions', () => {
    const json = JSON.parse(JSON.stringify(projectEntity(row(), { baseUrl: BASE }))) as Record<string, unknown>
    for (const key of ['owner', 'repository_storage', 'statistics', 'permissions']) expect(json).not.toHaveProperty(key)
  })

  it('places owner right after visibility for a personal project, null when the owner is gone', () => {
    const personal = row({ ns_kind: 'user', ns_owner_id: 9 })
    const withOwner = JSON.parse(
      JSON.stringify(
        projectEntity(personal, {
          baseUrl: BASE,
          owner: { id: 9, username: 'ann', name: 'Ann', state: 'active', avatar_url: null, locked_until: null },
        }),
      ),
    )
    const keys = Object.keys(withOwner)
    expect(keys[keys.indexOf('visibility') + 1]).toBe('owner')
    expect(withOwner.owner).toEqual({
      id: 9,
      username: 'ann',
      name: 'Ann',
      state: 'active',
      locked: false,
      avatar_url: null,
      web_url: `${BASE}/ann`,
    })
    expect(JSON.parse(JSON.stringify(projectEntity(personal, { baseUrl: BASE }))).owner).toBeNull()
  })

  it('ends with repository_storage, statistics and permissions when asked for, in that order', () => {
    const entity = JSON.parse(
      JSON.stringify(
        projectEntity(row(), {
          baseUrl: BASE,
          showStorage: true,
          statistics: true,
          permissions: { project: 30, group: null },
        }),
      ),
    )
    expect(Object.keys(entity).slice(-3)).toEqual(['repository_storage', 'statistics', 'permissions'])
    expect(entity.permissions).toEqual({
      project_access: { access_level: 30, notification_level: 3 },
      group_access: null,
    })
    expect(entity.statistics.commit_count).toBe(0)
  })

  it('derives host-based URLs from the base URL including its port', () => {
    const entity = projectEntity(row(), { baseUrl: BASE })
    expect(entity.ssh_url_to_repo).toBe('git@burrow.test:team/alpha.git')
    expect(entity.container_registry_image_prefix).toBe('burrow.test:8080/team/alpha')
    expect(entity.merge_method).toBe('ff')
    expect(entity.description_html).toBe('<p data-sourcepos="1:1-1:5" dir="auto">A &lt;b&gt;</p>')
  })

  describe('projectEntityJson', () => {
    const owner = { id: 9, username: 'ann', name: 'Ann', state: 'active', avatar_url: null, locked_until: null }
    const variants: [string, ProjectWithNamespaceRow, ProjectExtras][] = [
      ['group project', row(), { baseUrl: BASE, permissions: { project: null, group: 30 } }],
      [
        'personal project with owner',
        row({ id: 8, ns_kind: 'user', ns_owner_id: 9 }),
        { baseUrl: BASE, owner, showStorage: true, statistics: true },
      ],
      [
        'shared project',
        row({ id: 10 }),
        {
          baseUrl: BASE,
          shares: [
            { project_id: 10, group_id: 4, group_access: 20, expires_at: null, group_name: 'G', group_full_path: 'g' },
          ],
        },
      ],
    ]

    it.each(variants)(
      'gives the bytes of JSON.stringify(projectEntity) for a %s, first and when memoised',
      (_name, p, x) => {
        const expected = JSON.stringify(projectEntity(p, x))
        expect(projectEntityJson(p, x).toString('utf8')).toBe(expected)
        expect(projectEntityJson(p, x).toString('utf8')).toBe(expected)
      },
    )

    it('re-serialises when the row, its namespace, owner, permissions or base URL change', () => {
      const p = row({ id: 11 })
      const x: ProjectExtras = { baseUrl: BASE, permissions: { project: 20, group: null } }
      projectEntityJson(p, x)
      const changes: [ProjectWithNamespaceRow, ProjectExtras][] = [
        [{ ...p, name: 'Renamed' }, x],
        [{ ...p, ns_full_path: 'moved' }, x],
        [{ ...p, settings: '{"merge_method":"rebase_merge"}' }, x],
        [p, { ...x, permissions: { project: 40, group: null } }],
        [p, { ...x, permissions: undefined }],
        [p, { ...x, baseUrl: 'https://other.example' }],
        [p, { ...x, statistics: true }],
        [
          { ...p, ns_kind: 'user', ns_owner_id: 9 },
          { ...x, owner },
        ],
        [
          { ...p, ns_kind: 'user', ns_owner_id: 9 },
          { ...x, owner: { ...owner, name: 'Ann B' } },
        ],
      ]
      for (const [changed, extras] of changes)
        expect(projectEntityJson(changed, extras).toString('utf8')).toBe(JSON.stringify(projectEntity(changed, extras)))
    })

    it('re-serialises when the owner’s lock runs out, though nothing in the rows changed', async () => {
      const p = row({ id: 12, ns_kind: 'user', ns_owner_id: 9 })
      const x: ProjectExtras = { baseUrl: BASE, owner: { ...owner, locked_until: '2030-01-01T00:10:00.000Z' } }
      const ownerAt = async (time: string) =>
        withClock(
          () => new Date(time),
          async () => JSON.parse(projectEntityJson(p, x).toString('utf8')).owner.locked,
        )
      expect(await ownerAt('2030-01-01T00:05:00.000Z')).toBe(true)
      expect(await ownerAt('2030-01-01T00:15:00.000Z')).toBe(false)
    })
  })
})
