/**
 * A project's forks (the Projects family): the direct forks the viewer may see, each with its
 * upstream, and "Fork" to make one in the viewer's namespace or a group they may create projects in.
 */

import { isRecord } from '../../shared/json'
import { options, SORT } from './shared'
import type { Option, ReadApi, ResourceDescription } from './types'

type Item = Readonly<Record<string, unknown>>

/** The role a group's `project_creation_level` asks of its members (GitLab's; `noone` and `administrator` none). */
const CREATION_ROLE: Readonly<Record<string, number>> = { developer: 30, maintainer: 40, owner: 50 }

const recordsOf = (body: unknown): Item[] => (Array.isArray(body) ? body.filter(isRecord) : [])

/**
 * Where the viewer may create a project, as GitLab's fork form offers: their own namespace and
 * the groups whose project creation level their role meets (an administrator: every group).
 * GitLab's Namespaces API does not say the viewer's role in a group, so the groups are read by
 * role (`GET /groups?min_access_level=` 30, 40 and 50, with the search) and each kept when its
 * highest list meets its `project_creation_level` (GitLab's default, developer, when it has none).
 */
export async function forkNamespaces(read: ReadApi, search: string): Promise<Option[]> {
  const query = { per_page: 100, order_by: 'path', sort: 'asc', ...(search === '' ? {} : { search }) }
  const me = await read('/user')
  const admin = isRecord(me) && me.is_admin === true
  const byRole = await Promise.all(
    (admin ? [null] : [30, 40, 50]).map((level) =>
      read('/groups', level === null ? query : { ...query, min_access_level: level }),
    ),
  )
  const role = new Map<string, number>()
  const groups = new Map<string, Item>()
  byRole.forEach((body, i) => {
    for (const group of recordsOf(body)) {
      const path = String(group.full_path)
      role.set(path, 30 + 10 * i)
      groups.set(path, group)
    }
  })
  const allowed = [...groups.values()].filter((g) => {
    if (admin) return true
    const needed = CREATION_ROLE[String(g.project_creation_level ?? 'developer')]
    return needed !== undefined && (role.get(String(g.full_path)) ?? 0) >= needed
  })
  const username = isRecord(me) && typeof me.username === 'string' ? me.username : null
  const own =
    username !== null && username.toLowerCase().includes(search.toLowerCase())
      ? [{ value: username, label: `${username} (your namespace)` }]
      : []
  return [...own, ...allowed.map((g) => ({ value: String(g.full_path), label: String(g.full_path) }))]
}

/** `namespace/path` of the project a fork was made from, when the viewer may read it. */
const upstreamOf = (p: Item): string | null =>
  ((p.forked_from_project as Item | undefined)?.path_with_namespace as string | undefined) ?? null

export const projectForks: ResourceDescription = {
  key: 'forks',
  family: 'projects',
  title: 'Forks',
  singular: 'fork',
  scope: 'project',
  description: 'Copies of the project in other namespaces; merge requests from a fork can target this project.',
  titleField: 'path_with_namespace',
  list: {
    path: '/projects/:project/forks',
    query: { per_page: 20 },
    columns: [
      { field: 'path_with_namespace', label: 'Fork', primary: true, width: 'minmax(0, 2fr)' },
      { field: 'visibility', label: 'Visibility', format: 'state', width: '110px' },
      { field: 'default_branch', label: 'Default branch', format: 'code', width: 'minmax(0, 1fr)' },
      { field: 'star_count', label: 'Stars', format: 'number', width: '70px' },
      { field: 'last_activity_at', label: 'Last activity', format: 'relative', width: '130px' },
    ],
    filters: [
      { kind: 'search', param: 'search', label: 'Search', placeholder: 'Name or path' },
      { kind: 'select', param: 'visibility', label: 'Visibility', options: options('private', 'internal', 'public') },
      { kind: 'flag', param: 'owned', label: 'Mine' },
      SORT,
    ],
  },
  detail: {
    path: '/projects/{id}',
    fields: [
      { field: 'path_with_namespace', label: 'Project', format: 'code' },
      { field: 'forked_from_project', label: 'Forked from', format: 'code', value: upstreamOf },
      { field: 'description', label: 'Description' },
      { field: 'visibility', label: 'Visibility', format: 'state' },
      { field: 'default_branch', label: 'Default branch', format: 'code' },
      { field: 'mr_default_target_self', label: 'Merge requests stay in the fork', format: 'boolean' },
      { field: 'forks_count', label: 'Its own forks', format: 'number' },
      { field: 'created_at', label: 'Forked', format: 'datetime' },
      { field: 'http_url_to_repo', label: 'Clone URL', format: 'code' },
      { field: 'web_url', label: 'Web page', format: 'link' },
    ],
  },
  create: {
    title: 'Fork the project',
    method: 'POST',
    path: '/projects/:project/fork',
    role: 'signed-in',
    outcome: 'detail',
    submitLabel: 'Fork',
    fields: [
      {
        name: 'namespace_path',
        label: 'Namespace',
        type: 'select',
        optionsFrom: forkNamespaces,
        placeholder: 'Your own namespace',
        help: 'Your namespace or a group you may create projects in; empty for your own namespace.',
      },
      { name: 'name', label: 'Name', type: 'text', maxLength: 255, help: "The project's name when left empty." },
      {
        name: 'path',
        label: 'Path',
        type: 'text',
        maxLength: 255,
        pattern: { source: '[A-Za-z0-9_][A-Za-z0-9_.-]*', message: 'Letters, digits, _, - and . only.' },
        help: "The project's path when left empty.",
      },
      { name: 'description', label: 'Description', type: 'textarea' },
      {
        name: 'visibility',
        label: 'Visibility',
        type: 'select',
        options: options('private', 'internal', 'public'),
        help: 'Never more open than the project or the group it lands in.',
      },
      { name: 'branches', label: 'Only this branch', type: 'text', placeholder: 'All branches and tags' },
      {
        name: 'mr_default_target_self',
        label: 'Merge requests stay in the fork',
        type: 'boolean',
        default: false,
        help: 'Otherwise new merge requests from the fork target this project.',
      },
    ],
  },
  actions: [
    {
      key: 'merge-request',
      label: 'Open merge request',
      method: 'POST',
      path: '/projects/{id}/merge_requests',
      on: 'item',
      // Into this project, whatever the fork's own default target: the server checks the fork network
      // and that the viewer may push to the fork.
      body: { target_project_id: ':project' },
      form: {
        title: 'Merge request from the fork into this project',
        submitLabel: 'Open merge request',
        fields: [
          { name: 'source_branch', label: "Fork's branch", type: 'text', required: true },
          { name: 'target_branch', label: 'Into branch', type: 'text', required: true, placeholder: 'main' },
          { name: 'title', label: 'Title', type: 'text', required: true, maxLength: 255 },
          { name: 'description', label: 'Description', type: 'textarea' },
        ],
      },
      done: (answer) => `Merge request !${String((answer as Item | null)?.iid ?? '')} opened in this project.`,
    },
    {
      key: 'unlink',
      label: 'Remove fork relationship',
      method: 'DELETE',
      path: '/projects/{id}/fork',
      on: 'item',
      // The fork's Owners may (the server decides): the viewer's role here is the upstream's.
      danger: true,
      confirm: (p) =>
        `Remove the fork relationship of ${String(p.path_with_namespace)}? Its merge requests can no longer target this project.`,
      outcome: 'list',
      done: 'Fork relationship removed.',
    },
  ],
}
