/** Resources of one group (the Groups family): the panel's group picker fills `:group`. */

import {
  ACCESS_REQUEST_COLUMNS,
  accessRequestActions,
  AUDIT_COLUMNS,
  AUDIT_DETAIL,
  AUDIT_FILTERS,
  MEMBER_COLUMNS,
  memberForms,
  RUNNER_ACTIONS,
  RUNNER_COLUMNS,
  RUNNER_DETAIL,
  RUNNER_EDIT,
  RUNNER_FILTERS,
} from './shared'
import type { ResourceDescription } from './types'
import { groupBadges } from './badges'
import { groupAccessTokens, groupVariables } from './group-ci'
import { groupWebhooks } from './webhooks'

const groupMembers = memberForms('/groups/:group/members', true)

export const groupMemberList: ResourceDescription = {
  key: 'members',
  family: 'groups',
  title: 'Members',
  singular: 'member',
  scope: 'group',
  description: 'Direct members of the group; they have the same role in its subgroups and projects.',
  readRole: 'signed-in',
  titleField: 'username',
  list: {
    path: '/groups/:group/members',
    query: { per_page: 20 },
    columns: MEMBER_COLUMNS,
    filters: [{ kind: 'search', param: 'query', label: 'Search', placeholder: 'Name or username' }],
  },
  detail: { path: '/groups/:group/members/{id}', fields: MEMBER_COLUMNS },
  create: { ...groupMembers.create, role: 'owner' },
  edit: { ...groupMembers.edit, role: 'owner' },
  actions: groupMembers.actions.map((a) => ({ ...a, role: 'owner' as const })),
}

export const groupBillableMembers: ResourceDescription = {
  key: 'billable-members',
  family: 'groups',
  title: 'Billable members',
  singular: 'billable member',
  scope: 'group',
  description:
    'Everyone who takes a seat in this top-level group, its subgroups and projects. Top-level groups only: a subgroup’s seats count in its top-level group.',
  readRole: 'owner',
  tier: 'Premium',
  titleField: 'username',
  list: {
    path: '/groups/:group/billable_members',
    query: { per_page: 20 },
    columns: [
      { field: 'name', label: 'Member', format: 'user', primary: true, width: 'minmax(0, 2fr)', value: (m) => m },
      { field: 'email', label: 'Email', width: 'minmax(0, 1.5fr)' },
      {
        field: 'membership_type',
        label: 'Membership',
        format: 'state',
        width: '130px',
        tones: { group_member: 'info', group_invite: 'default' },
      },
      { field: 'last_activity_on', label: 'Last active', format: 'date', width: '120px' },
      { field: 'removable', label: 'Removable', format: 'boolean', width: '100px' },
    ],
    filters: [
      { kind: 'search', param: 'search', label: 'Search', placeholder: 'Name or username' },
      {
        kind: 'select',
        param: 'sort',
        label: 'Sort',
        options: [
          { value: 'name_asc', label: 'Name, A to Z' },
          { value: 'name_desc', label: 'Name, Z to A' },
          { value: 'last_joined', label: 'Last joined' },
          { value: 'oldest_joined', label: 'Oldest joined' },
          { value: 'recent_sign_in', label: 'Recent sign-in' },
          { value: 'oldest_sign_in', label: 'Oldest sign-in' },
          { value: 'last_activity_on_desc', label: 'Recently active' },
          { value: 'last_activity_on_asc', label: 'Least recently active' },
          { value: 'access_level_desc', label: 'Highest role' },
          { value: 'access_level_asc', label: 'Lowest role' },
        ],
      },
    ],
  },
  actions: [
    {
      key: 'remove',
      label: 'Remove',
      method: 'DELETE',
      path: '/groups/:group/billable_members/{id}',
      on: 'item',
      role: 'owner',
      danger: true,
      visible: (m) => m.removable === true,
      confirm: (m) => `Remove ${String(m.name)} from the group, its subgroups and projects?`,
      done: 'Member removed everywhere in the group.',
    },
  ],
}

export const groupAccessRequests: ResourceDescription = {
  key: 'access-requests',
  family: 'groups',
  title: 'Access requests',
  singular: 'access request',
  scope: 'group',
  description: 'People asking to join the group.',
  readRole: 'owner',
  titleField: 'username',
  list: { path: '/groups/:group/access_requests', query: { per_page: 20 }, columns: ACCESS_REQUEST_COLUMNS },
  actions: accessRequestActions('/groups/:group/access_requests', true).map((a) => ({ ...a, role: 'owner' as const })),
}

export const groupAuditEvents: ResourceDescription = {
  key: 'audit-events',
  family: 'groups',
  title: 'Audit events',
  singular: 'audit event',
  scope: 'group',
  description: 'Changes made in the group (Owners see all, others their own).',
  readRole: 'developer',
  tier: 'Premium',
  titleField: 'id',
  list: {
    path: '/groups/:group/audit_events',
    query: { per_page: 20 },
    columns: AUDIT_COLUMNS,
    filters: AUDIT_FILTERS,
  },
  detail: { path: '/groups/:group/audit_events/{id}', fields: AUDIT_DETAIL },
}

export const groupRunners: ResourceDescription = {
  key: 'runners',
  family: 'groups',
  title: 'Runners',
  singular: 'runner',
  scope: 'group',
  description: 'Runners of the group and its subgroups and projects.',
  readRole: 'maintainer',
  titleField: 'description',
  list: { path: '/groups/:group/runners', query: { per_page: 20 }, columns: RUNNER_COLUMNS, filters: RUNNER_FILTERS },
  detail: { path: '/runners/{id}', fields: RUNNER_DETAIL },
  edit: RUNNER_EDIT('owner'),
  // Owners manage the group's runners; project runners belong to their projects' Maintainers.
  actions: [
    ...RUNNER_ACTIONS('owner', ['group_type']),
    {
      key: 'reset-token',
      label: 'Reset registration token',
      method: 'POST',
      path: '/groups/:group/runners/reset_registration_token',
      on: 'collection',
      role: 'owner',
      danger: true,
      confirm:
        'Reset the group’s runner registration token? Runners not yet registered with the old one can no longer use it.',
      outcome: 'secret',
      done: 'Registration token reset.',
    },
  ],
}

export const GROUP_RESOURCES: readonly ResourceDescription[] = [
  groupMemberList,
  groupBillableMembers,
  groupAccessRequests,
  groupAuditEvents,
  groupRunners,
  groupWebhooks,
  groupBadges,
  groupVariables,
  groupAccessTokens,
]
