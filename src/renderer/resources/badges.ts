/**
 * Badges of a project or a group (GitLab's Project badges and Group badges APIs): a link and an
 * image shown on the project's page, their `%{placeholders}` rendered by the server. One
 * description builder serves both scopes.
 */
import type { FieldView, FormField, ResourceDescription, Role } from './types'

type Item = Readonly<Record<string, unknown>>

/** A badge the scope owns: a project's list also shows the badges it inherits from its groups. */
const isOwn = (scope: 'project' | 'group') => (badge: Item) => badge.kind === scope

const FIELDS: readonly FieldView[] = [
  { field: 'name', label: 'Name' },
  { field: 'kind', label: 'Kind', format: 'state' },
  { field: 'link_url', label: 'Link', format: 'code' },
  { field: 'rendered_link_url', label: 'Rendered link', format: 'link' },
  { field: 'image_url', label: 'Image URL', format: 'code' },
  { field: 'rendered_image_url', label: 'Rendered image URL', format: 'link' },
]

const PLACEHOLDERS =
  'Placeholders: %{project_path}, %{project_title}, %{project_name}, %{project_id}, %{project_namespace}, %{group_name}, %{gitlab_server}, %{gitlab_pages_domain}, %{default_branch}, %{commit_sha}, %{latest_tag}.'

const SETTINGS: readonly FormField[] = [
  { name: 'name', label: 'Name', type: 'text', maxLength: 255, placeholder: 'Pipeline status' },
  {
    name: 'link_url',
    label: 'Link',
    type: 'text',
    required: true,
    placeholder: 'https://ci.example.com/%{project_path}',
    help: PLACEHOLDERS,
  },
  {
    name: 'image_url',
    label: 'Image URL',
    type: 'text',
    required: true,
    placeholder: 'https://ci.example.com/%{project_path}/badges/%{default_branch}/pipeline.svg',
  },
]

/** The description of one scope's badges: a project's for Maintainers, a group's for Owners. */
function badges(scope: 'project' | 'group'): ResourceDescription {
  const base = scope === 'project' ? '/projects/:project/badges' : '/groups/:group/badges'
  const role: Role = scope === 'project' ? 'maintainer' : 'owner'
  return {
    key: 'badges',
    family: scope === 'project' ? 'projects' : 'groups',
    title: 'Badges',
    singular: 'badge',
    scope,
    description:
      scope === 'project'
        ? 'Links with an image shown on the project’s page, its own and its groups’ (placeholders rendered for the project).'
        : 'Links with an image shown on the page of every project in the group (rendered here for its first project).',
    readRole: 'signed-in',
    titleField: 'name',
    titleOf: (badge) => String(badge.name || badge.link_url),
    list: {
      path: base,
      query: { per_page: 20 },
      columns: [
        { field: 'name', label: 'Name', primary: true, width: 'minmax(0, 1fr)' },
        { field: 'rendered_link_url', label: 'Link', format: 'link', width: 'minmax(0, 2fr)' },
        { field: 'rendered_image_url', label: 'Image', format: 'link', width: 'minmax(0, 2fr)' },
        { field: 'kind', label: 'Kind', format: 'state', width: '100px' },
      ],
      filters: [{ kind: 'search', param: 'name', label: 'Name', placeholder: 'Badge name' }],
    },
    detail: {
      path: `${base}/{id}`,
      fields: FIELDS,
      // A project's list shows its groups' badges, which its own badge endpoint does not answer.
      ...(scope === 'project'
        ? {
            listOnly: {
              is: (badge: Item) => !isOwn(scope)(badge),
              note: 'This badge belongs to a group of the project: change or delete it in that group’s Badges panel.',
            },
          }
        : {}),
    },
    create: {
      title: 'New badge',
      method: 'POST',
      path: base,
      role,
      outcome: 'detail',
      submitLabel: 'Add badge',
      fields: SETTINGS,
    },
    edit: { title: 'Edit badge', method: 'PUT', path: `${base}/{id}`, role, fields: SETTINGS },
    actions: [
      {
        key: 'delete',
        label: 'Delete',
        method: 'DELETE',
        path: `${base}/{id}`,
        on: 'item',
        role,
        danger: true,
        visible: isOwn(scope),
        confirm: (badge) => `Delete the badge ${String(badge.name || badge.link_url)}?`,
        outcome: 'list',
        done: 'Badge deleted.',
      },
    ],
  }
}

export const projectBadges = badges('project')
export const groupBadges = badges('group')
