/** Instance administration (Admin family): what GitLab's admin area offers over the API. */

import {
  AUDIT_COLUMNS,
  AUDIT_DETAIL,
  AUDIT_FILTERS,
  options,
  RUNNER_ACTIONS,
  RUNNER_COLUMNS,
  RUNNER_DETAIL,
  RUNNER_EDIT,
  RUNNER_FILTERS,
  SORT,
} from './shared'
import type { Action, FormValues, ResourceDescription } from './types'

const passwordNeeded = (v: FormValues): boolean => v.reset_password !== true && v.force_random_password !== true

export const adminUsers: ResourceDescription = {
  key: 'users',
  family: 'admin',
  title: 'Users',
  singular: 'user',
  scope: 'instance',
  description: 'Every account of the instance, with the administrator’s filters.',
  readRole: 'admin',
  titleField: 'username',
  list: {
    path: '/users',
    query: { per_page: 20 },
    columns: [
      { field: 'name', label: 'Name', format: 'user', primary: true, width: 'minmax(0, 2fr)', value: (u) => u },
      { field: 'username', label: 'Username', format: 'code', width: 'minmax(0, 1fr)' },
      { field: 'email', label: 'Email', width: 'minmax(0, 1.5fr)' },
      { field: 'state', label: 'State', format: 'state', width: '100px' },
      { field: 'is_admin', label: 'Admin', format: 'boolean', width: '70px' },
      { field: 'last_activity_on', label: 'Last active', format: 'date', width: '120px' },
      { field: 'created_at', label: 'Created', format: 'relative', width: '130px' },
    ],
    filters: [
      { kind: 'search', param: 'search', label: 'Search', placeholder: 'Name, username or email' },
      { kind: 'flag', param: 'active', label: 'Active' },
      { kind: 'flag', param: 'blocked', label: 'Blocked' },
      { kind: 'flag', param: 'admins', label: 'Administrators' },
      { kind: 'flag', param: 'external', label: 'External' },
      { kind: 'flag', param: 'without_projects', label: 'Without projects' },
      { kind: 'flag', param: 'exclude_internal', label: 'No internal users' },
      { kind: 'select', param: 'two_factor', label: 'Two-factor', options: options('enabled', 'disabled') },
      {
        kind: 'select',
        param: 'order_by',
        label: 'Order by',
        options: options('id', 'name', 'username', 'created_at', 'updated_at'),
      },
      SORT,
      { kind: 'datetime', param: 'created_after', label: 'Created after' },
      { kind: 'datetime', param: 'created_before', label: 'Created before' },
    ],
  },
  detail: {
    path: '/users/{id}',
    fields: [
      { field: 'name', label: 'Name' },
      { field: 'username', label: 'Username', format: 'code' },
      // The number other APIs and the admin's scripts ask for (user_id, assignee_ids).
      { field: 'id', label: 'User ID', format: 'code' },
      { field: 'email', label: 'Email' },
      { field: 'state', label: 'State', format: 'state' },
      { field: 'is_admin', label: 'Administrator', format: 'boolean' },
      { field: 'external', label: 'External', format: 'boolean' },
      { field: 'bot', label: 'Bot', format: 'boolean' },
      { field: 'can_create_group', label: 'Can create groups', format: 'boolean' },
      { field: 'projects_limit', label: 'Projects limit', format: 'number' },
      { field: 'two_factor_enabled', label: 'Two-factor', format: 'boolean' },
      { field: 'created_at', label: 'Created', format: 'datetime' },
      { field: 'confirmed_at', label: 'Confirmed', format: 'datetime' },
      { field: 'last_sign_in_at', label: 'Last sign-in', format: 'relative' },
      { field: 'last_activity_on', label: 'Last activity', format: 'date' },
      { field: 'sign_in_count', label: 'Sign-ins', format: 'number' },
      {
        field: 'identities',
        label: 'Identities',
        format: 'list',
        value: (u) =>
          ((u.identities as Readonly<Record<string, unknown>>[] | undefined) ?? []).map(
            (i) => `${String(i.provider)}: ${String(i.extern_uid)}`,
          ),
      },
      { field: 'web_url', label: 'Profile', format: 'link' },
      { field: 'note', label: 'Admin note' },
    ],
  },
  create: {
    title: 'New user',
    method: 'POST',
    path: '/users',
    role: 'admin',
    outcome: 'detail',
    submitLabel: 'Create user',
    fields: [
      { name: 'name', label: 'Name', type: 'text', required: true, maxLength: 255 },
      {
        name: 'username',
        label: 'Username',
        type: 'text',
        required: true,
        maxLength: 255,
        pattern: {
          source: '[a-zA-Z0-9_.][a-zA-Z0-9_.-]*',
          message: 'Username may hold letters, digits, _, . and - (not starting with -).',
        },
      },
      { name: 'email', label: 'Email', type: 'email', required: true },
      {
        name: 'reset_password',
        label: 'Send a password reset link',
        type: 'boolean',
        help: 'The user sets their own password from the email.',
      },
      { name: 'force_random_password', label: 'Set a random password', type: 'boolean' },
      {
        name: 'password',
        label: 'Password',
        type: 'password',
        minLength: 8,
        maxLength: 128,
        when: passwordNeeded,
        help: 'At least 8 characters.',
      },
      { name: 'skip_confirmation', label: 'Skip email confirmation', type: 'boolean', default: true },
      { name: 'admin', label: 'Administrator', type: 'boolean' },
      { name: 'external', label: 'External (sees only projects they are a member of)', type: 'boolean' },
      { name: 'can_create_group', label: 'Can create groups', type: 'boolean', default: true },
      { name: 'projects_limit', label: 'Projects limit', type: 'number', min: 0 },
      { name: 'note', label: 'Admin note', type: 'textarea' },
    ],
    // GitLab's rule: a password, a reset link or a random one.
    validate: (v): Record<string, string> =>
      passwordNeeded(v) && (v.password === null || v.password === '')
        ? { password: 'Give a password, or choose a reset link or a random password.' }
        : {},
  },
  edit: {
    title: 'Edit user',
    method: 'PUT',
    path: '/users/{id}',
    role: 'admin',
    fields: [
      { name: 'name', label: 'Name', type: 'text', required: true, maxLength: 255 },
      { name: 'username', label: 'Username', type: 'text', required: true, maxLength: 255 },
      { name: 'email', label: 'Email', type: 'email', required: true },
      { name: 'admin', label: 'Administrator', type: 'boolean', from: 'is_admin' },
      { name: 'external', label: 'External', type: 'boolean' },
      { name: 'can_create_group', label: 'Can create groups', type: 'boolean' },
      { name: 'projects_limit', label: 'Projects limit', type: 'number', min: 0 },
      { name: 'note', label: 'Admin note', type: 'textarea' },
    ],
  },
  actions: [
    {
      key: 'block',
      label: 'Block',
      method: 'POST',
      path: '/users/{id}/block',
      on: 'item',
      role: 'admin',
      visible: (u) => u.state === 'active',
      confirm: (u) => `Block @${String(u.username)}? They can no longer sign in or use their tokens.`,
      done: 'User blocked.',
    },
    {
      key: 'unblock',
      label: 'Unblock',
      method: 'POST',
      path: '/users/{id}/unblock',
      on: 'item',
      role: 'admin',
      visible: (u) => u.state === 'blocked',
      done: 'User unblocked.',
    },
    {
      key: 'delete',
      label: 'Delete',
      method: 'DELETE',
      path: '/users/{id}',
      on: 'item',
      role: 'admin',
      danger: true,
      form: {
        title: 'Delete user',
        submitLabel: 'Delete user',
        queryFields: ['hard_delete'],
        fields: [
          {
            name: 'hard_delete',
            label:
              'Also delete their contributions (issues, merge requests, notes) instead of moving them to the Ghost user',
            type: 'boolean',
          },
        ],
      },
      confirm: (u) => `Delete @${String(u.username)}? This cannot be undone.`,
      outcome: 'list',
      done: 'User deleted.',
    },
  ],
}

export const adminRunners: ResourceDescription = {
  key: 'runners',
  family: 'admin',
  title: 'All runners',
  singular: 'runner',
  scope: 'instance',
  description: 'Instance, group and project runners of the whole instance.',
  readRole: 'admin',
  titleField: 'description',
  list: { path: '/runners/all', query: { per_page: 20 }, columns: RUNNER_COLUMNS, filters: RUNNER_FILTERS },
  detail: { path: '/runners/{id}', fields: RUNNER_DETAIL },
  edit: RUNNER_EDIT('admin'),
  actions: RUNNER_ACTIONS('admin'),
}

export const adminAuditEvents: ResourceDescription = {
  key: 'audit-events',
  family: 'admin',
  title: 'Audit events',
  singular: 'audit event',
  scope: 'instance',
  description: 'Changes to users, groups and projects, as the instance recorded them.',
  readRole: 'admin',
  tier: 'Premium',
  titleField: 'id',
  list: {
    path: '/audit_events',
    query: { per_page: 20 },
    columns: AUDIT_COLUMNS,
    filters: [
      ...AUDIT_FILTERS,
      { kind: 'select', param: 'entity_type', label: 'Entity type', options: options('User', 'Group', 'Project') },
      { kind: 'number', param: 'entity_id', label: 'Entity id' },
    ],
  },
  detail: { path: '/audit_events/{id}', fields: AUDIT_DETAIL },
}

const GEO_FIELDS = [
  {
    name: 'name',
    label: 'Name',
    type: 'text',
    required: true,
    help: 'Must equal the node’s configured name (its external URL when none is set).',
  },
  { name: 'url', label: 'URL', type: 'url', required: true },
  { name: 'internal_url', label: 'Internal URL', type: 'url' },
  { name: 'enabled', label: 'Enabled', type: 'boolean', default: true },
  { name: 'files_max_capacity', label: 'Files capacity', type: 'number', min: 0, default: 10 },
  { name: 'repos_max_capacity', label: 'Repositories capacity', type: 'number', min: 0, default: 25 },
  { name: 'verification_max_capacity', label: 'Verification capacity', type: 'number', min: 0, default: 100 },
  {
    name: 'container_repositories_max_capacity',
    label: 'Container repositories capacity',
    type: 'number',
    min: 0,
    default: 10,
  },
  { name: 'sync_object_storage', label: 'Sync object storage', type: 'boolean' },
  {
    name: 'selective_sync_type',
    label: 'Selective sync',
    type: 'select',
    options: [
      { value: 'namespaces', label: 'Namespaces' },
      { value: 'shards', label: 'Shards' },
    ],
  },
  {
    name: 'selective_sync_shards',
    label: 'Shards',
    type: 'tags',
    when: (v: FormValues) => v.selective_sync_type === 'shards',
  },
  {
    name: 'selective_sync_namespace_ids',
    label: 'Namespace ids',
    type: 'tags',
    when: (v: FormValues) => v.selective_sync_type === 'namespaces',
    pattern: { source: '\\d+', message: 'Namespace ids are numbers.' },
  },
  { name: 'minimum_reverification_interval', label: 'Re-verification interval (days)', type: 'number', min: 1 },
] as const

export const adminGeoNodes: ResourceDescription = {
  key: 'replication-nodes',
  family: 'admin',
  title: 'Replication nodes',
  singular: 'replication node',
  scope: 'instance',
  description: 'Geo sites that replicate this instance. A secondary is read-only: change nodes from the primary.',
  readRole: 'admin',
  tier: 'Premium',
  titleField: 'name',
  list: {
    path: '/geo_nodes',
    unpaged: true,
    columns: [
      { field: 'name', label: 'Name', primary: true, width: 'minmax(0, 2fr)' },
      { field: 'url', label: 'URL', format: 'link', width: 'minmax(0, 2fr)' },
      { field: 'primary', label: 'Primary', format: 'boolean', width: '80px' },
      { field: 'current', label: 'This node', format: 'boolean', width: '90px' },
      { field: 'enabled', label: 'Enabled', format: 'boolean', width: '80px' },
      { field: 'selective_sync_type', label: 'Selective sync', width: '120px' },
    ],
  },
  detail: {
    path: '/geo_nodes/{id}',
    fields: [
      { field: 'name', label: 'Name' },
      { field: 'url', label: 'URL', format: 'link' },
      { field: 'internal_url', label: 'Internal URL', format: 'link' },
      { field: 'primary', label: 'Primary', format: 'boolean' },
      { field: 'current', label: 'This node', format: 'boolean' },
      { field: 'enabled', label: 'Enabled', format: 'boolean' },
      { field: 'files_max_capacity', label: 'Files capacity', format: 'number' },
      { field: 'repos_max_capacity', label: 'Repositories capacity', format: 'number' },
      { field: 'verification_max_capacity', label: 'Verification capacity', format: 'number' },
      { field: 'container_repositories_max_capacity', label: 'Container repositories capacity', format: 'number' },
      { field: 'selective_sync_type', label: 'Selective sync' },
      { field: 'selective_sync_shards', label: 'Shards', format: 'list' },
      { field: 'selective_sync_namespace_ids', label: 'Namespace ids', format: 'list' },
      { field: 'minimum_reverification_interval', label: 'Re-verification interval (days)', format: 'number' },
      { field: 'sync_object_storage', label: 'Sync object storage', format: 'boolean' },
      { field: 'clone_protocol', label: 'Clone protocol' },
    ],
  },
  create: {
    title: 'New replication node',
    method: 'POST',
    path: '/geo_nodes',
    role: 'admin',
    outcome: 'detail',
    fields: [...GEO_FIELDS.slice(0, 3), { name: 'primary', label: 'Primary', type: 'boolean' }, ...GEO_FIELDS.slice(3)],
    toBody: (v) => geoBody(v),
  },
  edit: {
    title: 'Edit replication node',
    method: 'PUT',
    path: '/geo_nodes/{id}',
    role: 'admin',
    fields: GEO_FIELDS,
    toBody: (v) => geoBody(v),
  },
  actions: [
    {
      key: 'repair',
      label: 'Repair',
      method: 'POST',
      path: '/geo_nodes/{id}/repair',
      on: 'item',
      role: 'admin',
      confirm: (n) => `Repair the OAuth application of ${String(n.name)}?`,
      done: 'Repair started.',
    },
    {
      key: 'delete',
      label: 'Delete',
      method: 'DELETE',
      path: '/geo_nodes/{id}',
      on: 'item',
      role: 'admin',
      danger: true,
      confirm: (n) => `Delete replication node ${String(n.name)}? It stops replicating.`,
      outcome: 'list',
      done: 'Node deleted.',
    },
  ],
}

/** Namespace ids go as numbers; a cleared selective sync goes as null. */
function geoBody(v: FormValues): Record<string, string | number | boolean | null | readonly (string | number)[]> {
  const body: Record<string, string | number | boolean | null | readonly (string | number)[]> = {}
  for (const [key, value] of Object.entries(v)) {
    if (value === null || value === '') continue
    body[key] = Array.isArray(value) ? [...value] : (value as string | number | boolean)
  }
  body.selective_sync_type =
    typeof v.selective_sync_type === 'string' && v.selective_sync_type !== '' ? v.selective_sync_type : null
  if (Array.isArray(v.selective_sync_namespace_ids))
    body.selective_sync_namespace_ids = v.selective_sync_namespace_ids.map(Number)
  return body
}

export const adminGeoStatus: ResourceDescription = {
  key: 'replication-status',
  family: 'admin',
  title: 'Replication status',
  singular: 'node status',
  scope: 'instance',
  description: 'Health and sync progress of each replication node.',
  readRole: 'admin',
  tier: 'Premium',
  titleField: 'geo_node_id',
  list: {
    path: '/geo_nodes/status',
    unpaged: true,
    key: 'geo_node_id',
    columns: [
      { field: 'geo_node_id', label: 'Node', format: 'code', primary: true, width: '80px' },
      { field: 'health_status', label: 'Health', format: 'state', width: '110px' },
      { field: 'repositories_synced_in_percentage', label: 'Repositories', width: 'minmax(0, 1fr)' },
      { field: 'wikis_synced_in_percentage', label: 'Wikis', width: 'minmax(0, 1fr)' },
      { field: 'job_artifacts_synced_in_percentage', label: 'Job artifacts', width: 'minmax(0, 1fr)' },
      { field: 'attachments_synced_in_percentage', label: 'Attachments', width: 'minmax(0, 1fr)' },
      { field: 'db_replication_lag_seconds', label: 'Lag', format: 'duration', width: '90px' },
    ],
  },
  detail: {
    path: '/geo_nodes/{geo_node_id}/status',
    fields: [
      { field: 'geo_node_id', label: 'Node', format: 'code' },
      { field: 'healthy', label: 'Healthy', format: 'boolean' },
      { field: 'health', label: 'Health' },
      { field: 'missing_oauth_application', label: 'OAuth application missing', format: 'boolean' },
      { field: 'db_replication_lag_seconds', label: 'Database lag', format: 'duration' },
      { field: 'repositories_count', label: 'Repositories', format: 'number' },
      { field: 'repositories_synced_count', label: 'Repositories synced', format: 'number' },
      { field: 'repositories_failed_count', label: 'Repositories failed', format: 'number' },
      { field: 'wikis_synced_in_percentage', label: 'Wikis synced' },
      { field: 'attachments_synced_in_percentage', label: 'Attachments synced' },
      { field: 'lfs_objects_synced_in_percentage', label: 'LFS objects synced' },
      { field: 'job_artifacts_synced_in_percentage', label: 'Job artifacts synced' },
    ],
  },
}

export const adminPagesDomains: ResourceDescription = {
  key: 'pages-domains',
  family: 'admin',
  title: 'Pages domains',
  singular: 'Pages domain',
  scope: 'instance',
  description: 'Custom domains of every project’s Pages site.',
  readRole: 'admin',
  titleField: 'domain',
  list: {
    path: '/pages/domains',
    key: 'domain',
    columns: [
      { field: 'domain', label: 'Domain', primary: true, width: 'minmax(0, 2fr)' },
      { field: 'url', label: 'URL', format: 'link', width: 'minmax(0, 2fr)' },
      { field: 'project_id', label: 'Project', format: 'code', width: '80px' },
      { field: 'auto_ssl_enabled', label: 'Let’s Encrypt', format: 'boolean', width: '110px' },
      { field: 'certificate.expired', label: 'Expired', format: 'boolean', width: '80px' },
      { field: 'certificate.expiration', label: 'Certificate expires', format: 'date', width: '150px' },
    ],
  },
  detail: {
    fields: [
      { field: 'domain', label: 'Domain' },
      { field: 'url', label: 'URL', format: 'link' },
      { field: 'project_id', label: 'Project id', format: 'code' },
      { field: 'auto_ssl_enabled', label: 'Let’s Encrypt', format: 'boolean' },
      { field: 'certificate.expired', label: 'Certificate expired', format: 'boolean' },
      { field: 'certificate.expiration', label: 'Certificate expires', format: 'datetime' },
    ],
  },
}

/** GitLab's human state names of a storage move (`cleanup failed`). */
const MOVE_TONES = {
  finished: 'success',
  failed: 'error',
  'cleanup failed': 'error',
  initial: 'default',
  scheduled: 'info',
  started: 'info',
  replicated: 'info',
} as const

/** Schedules the move of one project's or group's repository (the single-container endpoint). */
function moveOne(container: 'project' | 'group'): Action {
  const project = container === 'project'
  return {
    key: 'move-one',
    label: project ? 'Move one project' : 'Move one group',
    method: 'POST',
    path: project ? '/projects/{project_id}/repository_storage_moves' : '/groups/{group_id}/repository_storage_moves',
    on: 'collection',
    role: 'admin',
    form: {
      title: project ? 'Move a project’s repository' : 'Move a group’s wiki repository',
      submitLabel: 'Schedule move',
      pathFields: [`${container}_id`],
      fields: [
        {
          name: `${container}_id`,
          label: project ? 'Project (id or full path)' : 'Group (id or full path)',
          type: 'text',
          required: true,
          placeholder: project ? 'kestrel/website' : 'kestrel',
        },
        {
          name: 'destination_storage_name',
          label: 'To storage',
          type: 'text',
          help: 'Empty: the storage the instance picks.',
        },
      ],
    },
    outcome: 'reload',
    done: 'Move scheduled: the repository is read-only until it finishes.',
  }
}

const MOVE_COLUMNS = (container: 'project' | 'group') =>
  [
    { field: 'id', label: 'Move', format: 'code', primary: true, width: '70px' },
    {
      field: container,
      label: container === 'project' ? 'Project' : 'Group',
      width: 'minmax(0, 2fr)',
      value: (m: Readonly<Record<string, unknown>>) => {
        const c = m[container] as Record<string, unknown> | null | undefined
        return c?.path_with_namespace ?? c?.full_path ?? c?.name ?? '—'
      },
    },
    { field: 'source_storage_name', label: 'From', format: 'code', width: 'minmax(0, 1fr)' },
    { field: 'destination_storage_name', label: 'To', format: 'code', width: 'minmax(0, 1fr)' },
    { field: 'state', label: 'State', format: 'state', width: '120px', tones: MOVE_TONES },
    { field: 'created_at', label: 'Scheduled', format: 'relative', width: '130px' },
  ] as const

const BULK_MOVE_FORM = {
  title: 'Schedule a bulk move',
  submitLabel: 'Schedule moves',
  fields: [
    { name: 'source_storage_name', label: 'From storage', type: 'text', required: true, default: 'default' },
    { name: 'destination_storage_name', label: 'To storage', type: 'text', required: true },
  ],
} as const

export const adminProjectMoves: ResourceDescription = {
  key: 'storage-moves',
  family: 'admin',
  title: 'Project storage moves',
  singular: 'storage move',
  scope: 'instance',
  description: 'Repository moves between storages. A repository is read-only while it moves.',
  readRole: 'admin',
  titleField: 'id',
  list: { path: '/project_repository_storage_moves', query: { per_page: 20 }, columns: MOVE_COLUMNS('project') },
  detail: {
    path: '/project_repository_storage_moves/{id}',
    fields: [
      { field: 'id', label: 'Move', format: 'code' },
      { field: 'state', label: 'State', format: 'state', tones: MOVE_TONES },
      { field: 'project.path_with_namespace', label: 'Project', format: 'code' },
      { field: 'source_storage_name', label: 'From', format: 'code' },
      { field: 'destination_storage_name', label: 'To', format: 'code' },
      { field: 'created_at', label: 'Scheduled', format: 'datetime' },
    ],
  },
  actions: [
    {
      key: 'bulk',
      label: 'Schedule bulk move',
      method: 'POST',
      path: '/project_repository_storage_moves',
      on: 'collection',
      role: 'admin',
      form: BULK_MOVE_FORM,
      confirm: 'Every project repository on the source storage is moved, and each is read-only while it moves. Go on?',
      outcome: 'reload',
      done: 'Moves scheduled: they run in the background.',
    },
    moveOne('project'),
  ],
}

export const adminGroupMoves: ResourceDescription = {
  key: 'group-storage-moves',
  family: 'admin',
  title: 'Group storage moves',
  singular: 'group storage move',
  scope: 'instance',
  description: 'Moves of group wikis between storages.',
  readRole: 'admin',
  tier: 'Premium',
  titleField: 'id',
  list: { path: '/group_repository_storage_moves', query: { per_page: 20 }, columns: MOVE_COLUMNS('group') },
  detail: {
    path: '/group_repository_storage_moves/{id}',
    fields: [
      { field: 'id', label: 'Move', format: 'code' },
      { field: 'state', label: 'State', format: 'state', tones: MOVE_TONES },
      { field: 'group.name', label: 'Group' },
      { field: 'group.web_url', label: 'Group page', format: 'link' },
      { field: 'source_storage_name', label: 'From', format: 'code' },
      { field: 'destination_storage_name', label: 'To', format: 'code' },
      { field: 'created_at', label: 'Scheduled', format: 'datetime' },
    ],
  },
  actions: [
    {
      key: 'bulk',
      label: 'Schedule bulk move',
      method: 'POST',
      path: '/group_repository_storage_moves',
      on: 'collection',
      role: 'admin',
      form: BULK_MOVE_FORM,
      confirm: 'Every group repository on the source storage is moved. Go on?',
      outcome: 'reload',
      done: 'Moves scheduled: they run in the background.',
    },
    moveOne('group'),
  ],
}

export const adminSettings: ResourceDescription = {
  key: 'settings',
  family: 'admin',
  title: 'Application settings',
  singular: 'settings',
  scope: 'instance',
  description: 'Instance-wide settings that Burrow Server exposes.',
  readRole: 'admin',
  singleton: {
    path: '/application/settings',
    fields: [
      { field: 'signup_enabled', label: 'Sign-up enabled', format: 'boolean' },
      { field: 'impersonation_enabled', label: 'Impersonation enabled', format: 'boolean' },
      { field: 'pages_enabled', label: 'Pages enabled', format: 'boolean' },
      { field: 'epics_enabled', label: 'Epics enabled', format: 'boolean' },
      { field: 'default_branch_name', label: 'Default branch name', format: 'code' },
      { field: 'default_project_visibility', label: 'Default project visibility', format: 'state' },
      { field: 'default_group_visibility', label: 'Default group visibility', format: 'state' },
      { field: 'default_projects_limit', label: 'Default projects limit', format: 'number' },
      { field: 'max_attachment_size', label: 'Largest attachment (MB)', format: 'number' },
      { field: 'diff_max_files', label: 'Most files in a diff', format: 'number' },
      { field: 'diff_max_lines', label: 'Most lines in a diff', format: 'number' },
      {
        field: 'throttle_authenticated_api_requests_per_period',
        label: 'Authenticated API requests per period (0: no limit)',
        format: 'number',
      },
      { field: 'throttle_authenticated_api_period_in_seconds', label: 'Authenticated API period', format: 'duration' },
      { field: 'geo_node_name', label: 'Replication node name', format: 'code' },
      { field: 'max_alert_payload_bytes', label: 'Largest alert payload (bytes)', format: 'number' },
    ],
  },
  edit: {
    title: 'Edit application settings',
    method: 'PUT',
    path: '/application/settings',
    role: 'admin',
    fields: [
      { name: 'signup_enabled', label: 'Sign-up enabled', type: 'boolean' },
      { name: 'impersonation_enabled', label: 'Impersonation enabled', type: 'boolean' },
      { name: 'pages_enabled', label: 'Pages enabled', type: 'boolean' },
      { name: 'default_branch_name', label: 'Default branch name', type: 'text' },
      {
        name: 'default_project_visibility',
        label: 'Default project visibility',
        type: 'select',
        options: options('private', 'internal', 'public'),
      },
      {
        name: 'default_group_visibility',
        label: 'Default group visibility',
        type: 'select',
        options: options('private', 'internal', 'public'),
      },
      { name: 'default_projects_limit', label: 'Default projects limit', type: 'number', min: 0 },
      { name: 'max_attachment_size', label: 'Largest attachment (MB)', type: 'number', min: 1 },
      {
        name: 'throttle_authenticated_api_requests_per_period',
        label: 'Authenticated API requests per period (0: no limit)',
        type: 'number',
        min: 0,
      },
      { name: 'geo_node_name', label: 'Replication node name', type: 'text' },
    ],
  },
}

export const ADMIN_RESOURCES: readonly ResourceDescription[] = [
  adminUsers,
  adminRunners,
  adminAuditEvents,
  adminGeoNodes,
  adminGeoStatus,
  adminPagesDomains,
  adminProjectMoves,
  adminGroupMoves,
  adminSettings,
]
