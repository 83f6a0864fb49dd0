/**
 * Pieces several descriptions share: runner and audit-event views (instance, project and group
 * lists of the same resources), member forms, option lists as the API spells its values.
 */

import { ACCESS_LEVELS } from './format'
import type { Action, Column, FieldView, Filter, FormField, FormSpec, Option, Role } from './types'

type Item = Readonly<Record<string, unknown>>

export const options = (...values: readonly string[]): Option[] =>
  values.map((value) => ({ value, label: value.charAt(0).toUpperCase() + value.slice(1).replace(/_/g, ' ') }))

export const SORT: Filter = {
  kind: 'select',
  param: 'sort',
  label: 'Sort',
  options: [
    { value: 'desc', label: 'Newest first' },
    { value: 'asc', label: 'Oldest first' },
  ],
}

// ---- runners ---------------------------------------------------------------------------------

export const RUNNER_FILTERS: readonly Filter[] = [
  {
    kind: 'select',
    param: 'type',
    label: 'Type',
    options: [
      { value: 'instance_type', label: 'Instance' },
      { value: 'group_type', label: 'Group' },
      { value: 'project_type', label: 'Project' },
    ],
  },
  {
    kind: 'select',
    param: 'status',
    label: 'Status',
    options: options('online', 'offline', 'stale', 'never_contacted', 'active', 'paused'),
  },
  { kind: 'tags', param: 'tag_list', label: 'Tags', placeholder: 'docker, linux' },
]

export const RUNNER_COLUMNS: readonly Column[] = [
  {
    field: 'description',
    label: 'Runner',
    primary: true,
    width: 'minmax(0, 2fr)',
    value: (r) => (r.description as string | null) || `#${String(r.id)}`,
  },
  { field: 'id', label: 'ID', format: 'code', width: '70px' },
  {
    field: 'runner_type',
    label: 'Type',
    format: 'state',
    width: '130px',
    tones: { instance_type: 'info', group_type: 'default', project_type: 'default' },
  },
  { field: 'status', label: 'Status', format: 'state', width: '140px' },
  { field: 'ip_address', label: 'IP address', format: 'code', width: '130px' },
  { field: 'created_at', label: 'Registered', format: 'relative', width: '130px' },
]

export const RUNNER_DETAIL: readonly FieldView[] = [
  { field: 'description', label: 'Description' },
  { field: 'status', label: 'Status', format: 'state' },
  { field: 'runner_type', label: 'Type', format: 'state' },
  { field: 'paused', label: 'Paused', format: 'boolean' },
  { field: 'tag_list', label: 'Tags', format: 'list' },
  { field: 'run_untagged', label: 'Runs untagged jobs', format: 'boolean' },
  { field: 'locked', label: 'Locked to its projects', format: 'boolean' },
  { field: 'access_level', label: 'Access level', format: 'state' },
  { field: 'maximum_timeout', label: 'Maximum job timeout', format: 'duration' },
  { field: 'ip_address', label: 'IP address', format: 'code' },
  { field: 'version', label: 'Version', format: 'code' },
  { field: 'platform', label: 'Platform' },
  { field: 'architecture', label: 'Architecture' },
  { field: 'contacted_at', label: 'Last contact', format: 'relative' },
  {
    field: 'projects',
    label: 'Projects',
    format: 'list',
    value: (r) => ((r.projects as Item[] | undefined) ?? []).map((p) => p.path_with_namespace ?? p.name),
  },
  { field: 'groups', label: 'Groups', format: 'list' },
  { field: 'maintenance_note', label: 'Maintenance note' },
]

export const RUNNER_EDIT = (role: Role): FormSpec & { role: Role } => ({
  title: 'Edit runner',
  method: 'PUT',
  path: '/runners/{id}',
  role,
  fields: [
    { name: 'description', label: 'Description', type: 'text', maxLength: 1024 },
    { name: 'tag_list', label: 'Tags', type: 'tags', help: 'The final set: tags left out are removed.' },
    { name: 'run_untagged', label: 'Run untagged jobs', type: 'boolean' },
    { name: 'locked', label: 'Lock to current projects', type: 'boolean' },
    {
      name: 'access_level',
      label: 'Access level',
      type: 'select',
      options: [
        { value: 'not_protected', label: 'Any branch' },
        { value: 'ref_protected', label: 'Protected branches and tags only' },
      ],
    },
    {
      name: 'maximum_timeout',
      label: 'Maximum job timeout (seconds)',
      type: 'number',
      min: 600,
      help: 'At least 600 seconds; empty for no limit.',
    },
    { name: 'maintenance_note', label: 'Maintenance note', type: 'textarea', maxLength: 1024 },
  ],
})

const paused = (r: Item): boolean => r.paused === true || r.active === false

/**
 * Pause, resume and delete. `types` are the runners these apply to in the panel's context: a
 * project's Maintainers change its project runners, a group's Owners its group runners, only
 * administrators instance runners (the server's canUpdateRunner).
 */
export const RUNNER_ACTIONS = (
  role: Role,
  types: readonly string[] = ['instance_type', 'group_type', 'project_type'],
): Action[] => [
  {
    key: 'pause',
    label: 'Pause',
    method: 'PUT',
    path: '/runners/{id}',
    on: 'item',
    role,
    body: { paused: true },
    visible: (r) => !paused(r) && types.includes(String(r.runner_type)),
    done: 'Runner paused: it picks up no new jobs.',
  },
  {
    key: 'resume',
    label: 'Resume',
    method: 'PUT',
    path: '/runners/{id}',
    on: 'item',
    role,
    body: { paused: false },
    visible: (r) => paused(r) && types.includes(String(r.runner_type)),
    done: 'Runner resumed.',
  },
  {
    key: 'delete',
    label: 'Delete',
    method: 'DELETE',
    path: '/runners/{id}',
    on: 'item',
    role,
    danger: true,
    visible: (r) => types.includes(String(r.runner_type)),
    confirm: (r) =>
      `Delete runner ${(r.description as string | null) || `#${String(r.id)}`}? It stops taking jobs and has to be registered again.`,
    outcome: 'list',
    done: 'Runner deleted.',
  },
]

// ---- audit events ----------------------------------------------------------------------------

/** What an audit event says happened: its custom message, or the add/change/remove it records. */
export function auditAction(e: Item): string {
  const d = (e.details ?? {}) as Record<string, unknown>
  if (typeof d.custom_message === 'string') return d.custom_message
  if (typeof d.change === 'string')
    return `Changed ${d.change}${d.from !== undefined ? ` from ${String(d.from)}` : ''}${d.to !== undefined ? ` to ${String(d.to)}` : ''}`
  if (typeof d.add === 'string') return `Added ${d.add}`
  if (typeof d.remove === 'string') return `Removed ${d.remove}`
  return '—'
}

export const AUDIT_COLUMNS: readonly Column[] = [
  { field: 'action', label: 'Action', primary: true, width: 'minmax(0, 2fr)', value: auditAction },
  { field: 'details.author_name', label: 'Author', width: 'minmax(0, 1fr)' },
  { field: 'details.target_details', label: 'Target', format: 'code', width: 'minmax(0, 1fr)' },
  { field: 'entity_type', label: 'Entity', format: 'state', width: '90px' },
  { field: 'details.ip_address', label: 'IP address', format: 'code', width: '120px' },
  { field: 'created_at', label: 'When', format: 'relative', width: '130px' },
]

export const AUDIT_FILTERS: readonly Filter[] = [
  { kind: 'datetime', param: 'created_after', label: 'After' },
  { kind: 'datetime', param: 'created_before', label: 'Before' },
]

export const AUDIT_DETAIL: readonly FieldView[] = [
  { field: 'action', label: 'Action', value: auditAction },
  { field: 'created_at', label: 'When', format: 'datetime' },
  { field: 'author_id', label: 'Author', userId: true, format: 'user' },
  { field: 'details.author_name', label: 'Author name' },
  { field: 'entity_type', label: 'Entity type', format: 'state' },
  { field: 'entity_id', label: 'Entity id', format: 'code' },
  { field: 'details.entity_path', label: 'Entity path', format: 'code' },
  { field: 'details.target_type', label: 'Target type' },
  { field: 'details.target_details', label: 'Target', format: 'code' },
  { field: 'details.ip_address', label: 'IP address', format: 'code' },
  { field: 'details', label: 'Details', format: 'json' },
]

// ---- members and access requests -----------------------------------------------------------

export const MEMBER_COLUMNS: readonly Column[] = [
  { field: 'name', label: 'Member', format: 'user', primary: true, width: 'minmax(0, 2fr)', value: (m) => m },
  { field: 'username', label: 'Username', format: 'code', width: 'minmax(0, 1fr)' },
  { field: 'access_level', label: 'Role', format: 'access-level', width: '120px' },
  { field: 'expires_at', label: 'Expires', format: 'date', width: '120px' },
  { field: 'state', label: 'State', format: 'state', width: '100px' },
  { field: 'created_at', label: 'Member since', format: 'relative', width: '130px' },
]

const accessLevelOptions = (owner: boolean): Option[] =>
  ACCESS_LEVELS.filter((o) => o.value !== 15 && (owner || o.value !== 50))

export function memberForms(
  base: string,
  owner: boolean,
): { create: FormSpec & { role: Role }; edit: FormSpec & { role: Role }; actions: Action[] } {
  return {
    create: {
      title: 'Add member',
      method: 'POST',
      path: base,
      role: 'maintainer',
      outcome: 'reload',
      fields: [
        { name: 'username', label: 'Username', type: 'text', placeholder: 'amara', help: 'Or give the user id below.' },
        {
          name: 'user_id',
          label: 'User id',
          type: 'number',
          min: 1,
          help: 'The id shown on the user’s profile (or in Admin → Users).',
        },
        {
          name: 'access_level',
          label: 'Role',
          type: 'select',
          required: true,
          default: 30,
          options: accessLevelOptions(owner),
        },
        { name: 'expires_at', label: 'Access expires', type: 'date' },
      ],
      // The API takes one of them, and refuses both together.
      validate: (v): Record<string, string> => {
        const name = typeof v.username === 'string' && v.username.trim() !== ''
        const id = v.user_id !== null && v.user_id !== undefined && v.user_id !== ''
        if (name && id) return { user_id: 'Give a username or a user id, not both.' }
        return name || id ? {} : { username: 'Give the username (or the user id) of who to add.' }
      },
    },
    edit: {
      title: 'Change role',
      method: 'PUT',
      path: `${base}/{id}`,
      role: 'maintainer',
      fields: [
        { name: 'access_level', label: 'Role', type: 'select', required: true, options: accessLevelOptions(owner) },
        { name: 'expires_at', label: 'Access expires', type: 'date', help: 'Empty: never.' },
      ],
      // PUT needs access_level even when only the expiry changes; an emptied date clears it.
      toBody: (v) => ({
        access_level: Number(v.access_level),
        expires_at: typeof v.expires_at === 'string' && v.expires_at !== '' ? v.expires_at : null,
      }),
    },
    actions: [
      {
        key: 'remove',
        label: 'Remove',
        method: 'DELETE',
        path: `${base}/{id}`,
        on: 'item',
        role: 'maintainer',
        danger: true,
        confirm: (m) => `Remove ${String(m.name)} (@${String(m.username)})? They lose access right away.`,
        outcome: 'list',
        done: 'Member removed.',
      },
    ],
  }
}

export const ACCESS_REQUEST_COLUMNS: readonly Column[] = [
  { field: 'name', label: 'Requested by', format: 'user', primary: true, width: 'minmax(0, 2fr)', value: (m) => m },
  { field: 'username', label: 'Username', format: 'code', width: 'minmax(0, 1fr)' },
  { field: 'requested_at', label: 'Requested', format: 'relative', width: '140px' },
]

export function accessRequestActions(base: string, owner: boolean): Action[] {
  return [
    {
      key: 'approve',
      label: 'Approve',
      method: 'PUT',
      path: `${base}/{id}/approve`,
      on: 'item',
      role: 'maintainer',
      form: {
        title: 'Approve access request',
        submitLabel: 'Approve',
        fields: [
          {
            name: 'access_level',
            label: 'Role',
            type: 'select',
            required: true,
            default: 30,
            options: accessLevelOptions(owner),
          },
        ],
      },
      done: 'Access granted.',
    },
    {
      key: 'deny',
      label: 'Deny',
      method: 'DELETE',
      path: `${base}/{id}`,
      on: 'item',
      role: 'maintainer',
      danger: true,
      confirm: (m) => `Deny the access request of ${String(m.name)}?`,
      done: 'Access request denied.',
    },
  ]
}

export const DATE_FIELD = (name: string, label: string): FormField => ({ name, label, type: 'date' })
