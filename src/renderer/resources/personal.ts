/** The signed-in user's own resources (the Account family): access tokens and activity. */

import { options, SORT } from './shared'
import type { ResourceDescription } from './types'

/** The scopes GitLab grants personal access tokens. */
export const TOKEN_SCOPES = options(
  'api',
  'read_api',
  'read_user',
  'read_repository',
  'write_repository',
  'read_registry',
  'write_registry',
  'sudo',
  'admin_mode',
  'create_runner',
  'manage_runner',
  'ai_features',
  'k8s_proxy',
  'self_rotate',
)

/** A date a year from now (`YYYY-MM-DD`): GitLab's longest lifetime by default. */
export function inOneYear(): string {
  const d = new Date()
  d.setFullYear(d.getFullYear() + 1)
  return d.toISOString().slice(0, 10)
}

export const personalTokens: ResourceDescription = {
  key: 'access-tokens',
  family: 'account',
  title: 'Access tokens',
  singular: 'access token',
  scope: 'user',
  description: 'Your personal access tokens. A new token is shown once and never stored by Burrow.',
  readRole: 'signed-in',
  titleField: 'name',
  list: {
    path: '/personal_access_tokens',
    // Administrators see everyone's tokens without user_id.
    query: { per_page: 20, user_id: ':user' },
    columns: [
      { field: 'name', label: 'Token', primary: true, width: 'minmax(0, 2fr)' },
      { field: 'scopes', label: 'Scopes', format: 'list', width: 'minmax(0, 2fr)' },
      { field: 'active', label: 'Active', format: 'boolean', width: '80px' },
      { field: 'expires_at', label: 'Expires', format: 'date', width: '120px' },
      { field: 'last_used_at', label: 'Last used', format: 'relative', width: '130px' },
      { field: 'created_at', label: 'Created', format: 'relative', width: '130px' },
    ],
    filters: [
      { kind: 'search', param: 'search', label: 'Search', placeholder: 'Token name' },
      { kind: 'select', param: 'state', label: 'State', options: options('active', 'inactive') },
      {
        kind: 'select',
        param: 'revoked',
        label: 'Revoked',
        options: [
          { value: 'true', label: 'Revoked' },
          { value: 'false', label: 'Not revoked' },
        ],
      },
    ],
  },
  detail: {
    path: '/personal_access_tokens/{id}',
    fields: [
      { field: 'name', label: 'Name' },
      { field: 'description', label: 'Description' },
      { field: 'scopes', label: 'Scopes', format: 'list' },
      { field: 'active', label: 'Active', format: 'boolean' },
      { field: 'revoked', label: 'Revoked', format: 'boolean' },
      { field: 'expires_at', label: 'Expires', format: 'date' },
      { field: 'last_used_at', label: 'Last used', format: 'relative' },
      { field: 'created_at', label: 'Created', format: 'datetime' },
    ],
  },
  create: {
    title: 'New access token',
    method: 'POST',
    // GitLab creates another user's (or one's own, through the admin API) token here; administrators only.
    path: '/users/:user/personal_access_tokens',
    role: 'admin',
    outcome: 'secret',
    secretField: 'token',
    submitLabel: 'Create token',
    fields: [
      { name: 'name', label: 'Name', type: 'text', required: true, maxLength: 255 },
      { name: 'description', label: 'Description', type: 'textarea' },
      { name: 'scopes', label: 'Scopes', type: 'tags', required: true, options: TOKEN_SCOPES, default: ['read_api'] },
      { name: 'expires_at', label: 'Expires on', type: 'date', default: inOneYear() },
    ],
  },
  actions: [
    {
      key: 'rotate',
      label: 'Rotate',
      method: 'POST',
      path: '/personal_access_tokens/{id}/rotate',
      on: 'item',
      visible: (t) => t.active === true,
      confirm: (t) => `Rotate ${String(t.name)}? The current value stops working at once; the new one is shown once.`,
      outcome: 'secret',
      done: 'Token rotated.',
    },
    {
      key: 'revoke',
      label: 'Revoke',
      method: 'DELETE',
      path: '/personal_access_tokens/{id}',
      on: 'item',
      danger: true,
      visible: (t) => t.active === true,
      confirm: (t) => `Revoke ${String(t.name)}? Anything using it loses access.`,
      done: 'Token revoked.',
    },
  ],
}

/** What an event's stored target type reads as (`DiscussionNote` → `Comment`). */
const TARGET_KINDS: Readonly<Record<string, string>> = {
  Issue: 'Issue',
  MergeRequest: 'Merge request',
  Note: 'Comment',
  DiscussionNote: 'Comment',
  DiffNote: 'Comment',
  Milestone: 'Milestone',
  Project: 'Project',
  Epic: 'Epic',
  Snippet: 'Snippet',
  User: 'User',
  'WikiPage::Meta': 'Wiki page',
  'DesignManagement::Design': 'Design',
}
const targetKind = (type: unknown): string | null => (typeof type === 'string' ? (TARGET_KINDS[type] ?? type) : null)

export const personalEvents: ResourceDescription = {
  key: 'events',
  family: 'account',
  title: 'Activity',
  singular: 'event',
  scope: 'user',
  description: 'What you did, newest first (events are kept three years).',
  readRole: 'signed-in',
  titleField: 'action_name',
  list: {
    path: '/events',
    query: { per_page: 20 },
    columns: [
      {
        field: 'action_name',
        label: 'Action',
        format: 'state',
        width: '140px',
        tones: {
          opened: 'info',
          'pushed to': 'info',
          'pushed new': 'info',
          closed: 'default',
          merged: 'success',
          'commented on': 'default',
          deleted: 'error',
        },
      },
      {
        field: 'target_title',
        label: 'Target',
        primary: true,
        width: 'minmax(0, 3fr)',
        value: (e) =>
          e.target_title ?? (e.push_data as Record<string, unknown> | undefined)?.ref ?? e.target_type ?? '—',
      },
      { field: 'target_type', label: 'Type', width: '130px', value: (e) => targetKind(e.target_type) },
      { field: 'project_id', label: 'Project id', format: 'code', width: '100px' },
      { field: 'created_at', label: 'When', format: 'relative', width: '130px' },
    ],
    filters: [
      {
        kind: 'select',
        param: 'action',
        label: 'Action',
        options: options(
          'approved',
          'closed',
          'commented',
          'created',
          'destroyed',
          'expired',
          'joined',
          'left',
          'merged',
          'pushed',
          'reopened',
          'updated',
        ),
      },
      {
        kind: 'select',
        param: 'target_type',
        label: 'Target',
        options: options(
          'issue',
          'merge_request',
          'epic',
          'milestone',
          'note',
          'project',
          'snippet',
          'user',
          'wiki',
          'design',
        ),
      },
      { kind: 'date', param: 'after', label: 'After' },
      { kind: 'date', param: 'before', label: 'Before' },
      SORT,
    ],
  },
}

export const PERSONAL_RESOURCES: readonly ResourceDescription[] = [personalTokens, personalEvents]
