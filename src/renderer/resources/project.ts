/**
 * Resources of one project (the CI/CD, Operations, Security and Projects families): the panel's
 * project picker fills `:project`.
 */

import {
  ACCESS_REQUEST_COLUMNS,
  accessRequestActions,
  AUDIT_COLUMNS,
  AUDIT_DETAIL,
  AUDIT_FILTERS,
  MEMBER_COLUMNS,
  memberForms,
  options,
  RUNNER_ACTIONS,
  RUNNER_COLUMNS,
  RUNNER_DETAIL,
  RUNNER_EDIT,
  RUNNER_FILTERS,
  SORT,
} from './shared'
import { formatBytes, humanize } from './format'
import type { FormValues, NamedLink, ResourceDescription } from './types'
import { projectBadges } from './badges'
import { projectForks } from './forks'
import { projectPipelineSchedules } from './pipeline-schedules'
import { projectWebhooks } from './webhooks'

type Item = Readonly<Record<string, unknown>>

const CI_STATUSES = options(
  'created',
  'waiting_for_resource',
  'preparing',
  'pending',
  'running',
  'success',
  'failed',
  'canceled',
  'skipped',
  'manual',
  'scheduled',
)
/** A pipeline's retry reruns its failed and canceled jobs: nothing to do for one that passed. */
const PIPELINE_RETRYABLE = (p: Item): boolean => ['failed', 'canceled'].includes(String(p.status))
/** A finished job can run again as a new job (not one erased). */
const JOB_RETRYABLE = (j: Item): boolean => ['failed', 'canceled', 'success'].includes(String(j.status)) && !j.erased_at
const CANCELABLE = (i: Item): boolean =>
  ['created', 'waiting_for_resource', 'preparing', 'pending', 'running', 'scheduled'].includes(String(i.status))
const PIPELINE_SOURCES = options(
  'push',
  'web',
  'trigger',
  'schedule',
  'api',
  'external',
  'pipeline',
  'chat',
  'merge_request_event',
  'parent_pipeline',
)
const shortSha = (i: Item): string => String(i.sha ?? '').slice(0, 8)

// ---- CI/CD -------------------------------------------------------------------------------------

export const projectPipelines: ResourceDescription = {
  key: 'pipelines',
  family: 'ci-cd',
  title: 'Pipelines',
  singular: 'pipeline',
  scope: 'project',
  description: 'Pipelines of the project, newest first.',
  readRole: 'reporter',
  titleField: 'id',
  titleOf: (p) => `Pipeline #${String(p.id)}`,
  list: {
    path: '/projects/:project/pipelines',
    query: { per_page: 20 },
    columns: [
      { field: 'id', label: 'Pipeline', primary: true, width: '100px', value: (p) => `#${String(p.id)}` },
      { field: 'status', label: 'Status', format: 'state', width: '120px' },
      { field: 'ref', label: 'Ref', format: 'code', width: 'minmax(0, 2fr)' },
      { field: 'sha', label: 'Commit', format: 'code', width: '100px', value: shortSha },
      { field: 'source', label: 'Source', format: 'state', width: '150px' },
      { field: 'created_at', label: 'Created', format: 'relative', width: '130px' },
    ],
    filters: [
      { kind: 'select', param: 'status', label: 'Status', options: CI_STATUSES },
      {
        kind: 'select',
        param: 'scope',
        label: 'Scope',
        options: options('running', 'pending', 'finished', 'branches', 'tags'),
      },
      { kind: 'select', param: 'source', label: 'Source', options: PIPELINE_SOURCES },
      { kind: 'search', param: 'ref', label: 'Ref', placeholder: 'Branch or tag' },
      { kind: 'search', param: 'username', label: 'Triggered by', placeholder: 'Username' },
      {
        kind: 'select',
        param: 'order_by',
        label: 'Order by',
        options: options('id', 'status', 'ref', 'updated_at', 'user_id'),
      },
      SORT,
      { kind: 'datetime', param: 'updated_after', label: 'Updated after' },
    ],
  },
  detail: {
    path: '/projects/:project/pipelines/{id}',
    graph: { path: '/projects/:project/pipelines/{id}/jobs', jobResource: 'jobs' },
    testReport: { path: '/projects/:project/pipelines/{id}/test_report' },
    fields: [
      { field: 'id', label: 'Pipeline', format: 'code' },
      { field: 'iid', label: 'Number in project', format: 'code' },
      { field: 'status', label: 'Status', format: 'state' },
      { field: 'ref', label: 'Ref', format: 'code' },
      { field: 'tag', label: 'Tag pipeline', format: 'boolean' },
      { field: 'sha', label: 'Commit', format: 'code' },
      { field: 'source', label: 'Source', format: 'state' },
      { field: 'user', label: 'Triggered by', format: 'user' },
      { field: 'created_at', label: 'Created', format: 'datetime' },
      { field: 'started_at', label: 'Started', format: 'datetime' },
      { field: 'finished_at', label: 'Finished', format: 'datetime' },
      { field: 'duration', label: 'Duration', format: 'duration' },
      { field: 'queued_duration', label: 'Queued', format: 'duration' },
      { field: 'coverage', label: 'Coverage' },
      { field: 'yaml_errors', label: 'Configuration errors' },
      { field: 'web_url', label: 'Web page', format: 'link' },
    ],
  },
  create: {
    title: 'Run pipeline',
    method: 'POST',
    path: '/projects/:project/pipeline',
    role: 'developer',
    outcome: 'detail',
    submitLabel: 'Run pipeline',
    fields: [{ name: 'ref', label: 'Branch or tag', type: 'text', required: true, default: 'main' }],
  },
  actions: [
    {
      key: 'retry',
      label: 'Retry',
      method: 'POST',
      path: '/projects/:project/pipelines/{id}/retry',
      on: 'item',
      role: 'developer',
      visible: PIPELINE_RETRYABLE,
      done: 'Failed and canceled jobs retried.',
    },
    {
      key: 'cancel',
      label: 'Cancel',
      method: 'POST',
      path: '/projects/:project/pipelines/{id}/cancel',
      on: 'item',
      role: 'developer',
      visible: CANCELABLE,
      confirm: (p) => `Cancel pipeline #${String(p.id)}? Its running jobs stop.`,
      done: 'Pipeline canceled.',
    },
    {
      key: 'delete',
      label: 'Delete',
      method: 'DELETE',
      path: '/projects/:project/pipelines/{id}',
      on: 'item',
      role: 'owner',
      danger: true,
      confirm: (p) => `Delete pipeline #${String(p.id)} with its jobs, logs and artifacts?`,
      outcome: 'list',
      done: 'Pipeline deleted.',
    },
  ],
}

export const projectJobs: ResourceDescription = {
  key: 'jobs',
  family: 'ci-cd',
  title: 'Jobs',
  singular: 'job',
  scope: 'project',
  description: 'Jobs of every pipeline of the project.',
  readRole: 'reporter',
  titleField: 'name',
  list: {
    path: '/projects/:project/jobs',
    query: { per_page: 20 },
    columns: [
      { field: 'name', label: 'Job', primary: true, width: 'minmax(0, 1.2fr)' },
      { field: 'id', label: 'ID', format: 'code', width: '70px' },
      { field: 'stage', label: 'Stage', width: '90px' },
      { field: 'status', label: 'Status', format: 'state', width: '110px' },
      { field: 'ref', label: 'Ref', format: 'code', width: 'minmax(0, 1.5fr)' },
      { field: 'pipeline.id', label: 'Pipeline', format: 'code', width: '80px' },
      { field: 'duration', label: 'Duration', format: 'duration', width: '90px' },
      { field: 'created_at', label: 'Created', format: 'relative', width: '130px' },
    ],
    filters: [{ kind: 'select', param: 'scope', label: 'Status', options: CI_STATUSES }],
  },
  detail: {
    path: '/projects/:project/jobs/{id}',
    fields: [
      { field: 'name', label: 'Name' },
      { field: 'id', label: 'ID', format: 'code' },
      { field: 'stage', label: 'Stage' },
      { field: 'status', label: 'Status', format: 'state' },
      { field: 'failure_reason', label: 'Failure reason', format: 'state' },
      { field: 'ref', label: 'Ref', format: 'code' },
      { field: 'tag', label: 'Tag pipeline', format: 'boolean' },
      { field: 'commit.title', label: 'Commit' },
      { field: 'commit.short_id', label: 'Commit id', format: 'code' },
      { field: 'pipeline.id', label: 'Pipeline', format: 'code' },
      { field: 'user', label: 'Started by', format: 'user' },
      { field: 'runner.description', label: 'Runner' },
      { field: 'tag_list', label: 'Runner tags', format: 'list' },
      { field: 'created_at', label: 'Created', format: 'datetime' },
      { field: 'started_at', label: 'Started', format: 'datetime' },
      { field: 'finished_at', label: 'Finished', format: 'datetime' },
      { field: 'queued_duration', label: 'Queued', format: 'duration' },
      { field: 'duration', label: 'Duration', format: 'duration' },
      { field: 'coverage', label: 'Coverage' },
      { field: 'allow_failure', label: 'Allowed to fail', format: 'boolean' },
      {
        field: 'artifacts',
        label: 'Artifacts',
        format: 'list',
        value: (j) =>
          ((j.artifacts as Item[] | undefined) ?? []).map(
            (a) => `${String(a.filename)} (${String(a.file_type)}, ${formatBytes(a.size)})`,
          ),
      },
      { field: 'artifacts_expire_at', label: 'Artifacts expire', format: 'datetime' },
      { field: 'erased_at', label: 'Erased', format: 'datetime' },
      { field: 'web_url', label: 'Web page', format: 'link' },
    ],
    log: { path: '/projects/:project/jobs/{id}/trace', label: 'Log' },
  },
  actions: [
    {
      key: 'retry',
      label: 'Retry',
      method: 'POST',
      path: '/projects/:project/jobs/{id}/retry',
      on: 'item',
      role: 'developer',
      visible: JOB_RETRYABLE,
      done: 'Job retried as a new job.',
    },
    {
      key: 'cancel',
      label: 'Cancel',
      method: 'POST',
      path: '/projects/:project/jobs/{id}/cancel',
      on: 'item',
      role: 'developer',
      visible: CANCELABLE,
      confirm: (j) => `Cancel job ${String(j.name)}?`,
      done: 'Job canceled.',
    },
    {
      key: 'play',
      label: 'Run',
      method: 'POST',
      path: '/projects/:project/jobs/{id}/play',
      on: 'item',
      role: 'developer',
      visible: (j) => j.status === 'manual',
      done: 'Manual job started.',
    },
    {
      key: 'erase',
      label: 'Erase',
      method: 'POST',
      path: '/projects/:project/jobs/{id}/erase',
      on: 'item',
      role: 'maintainer',
      danger: true,
      visible: (j) => ['success', 'failed', 'canceled'].includes(String(j.status)) && !j.erased_at,
      confirm: (j) => `Erase the log and artifacts of job ${String(j.name)}?`,
      done: 'Job erased.',
    },
  ],
}

export const projectRunners: ResourceDescription = {
  key: 'runners',
  family: 'ci-cd',
  title: 'Runners',
  singular: 'runner',
  scope: 'project',
  description: 'Runners available to the project: its own, its groups’ and the instance’s.',
  readRole: 'maintainer',
  titleField: 'description',
  list: {
    path: '/projects/:project/runners',
    query: { per_page: 20 },
    columns: RUNNER_COLUMNS,
    filters: RUNNER_FILTERS,
  },
  detail: { path: '/runners/{id}', fields: RUNNER_DETAIL },
  edit: RUNNER_EDIT('maintainer'),
  actions: [
    ...RUNNER_ACTIONS('maintainer', ['project_type']).filter((a) => a.key !== 'delete'),
    {
      key: 'reset-token',
      label: 'Reset registration token',
      method: 'POST',
      path: '/projects/:project/runners/reset_registration_token',
      on: 'collection',
      role: 'maintainer',
      danger: true,
      confirm:
        'Reset the project’s runner registration token? Runners not yet registered with the old one can no longer use it.',
      outcome: 'secret',
      done: 'Registration token reset.',
    },
    {
      key: 'enable',
      label: 'Enable a runner',
      method: 'POST',
      path: '/projects/:project/runners',
      on: 'collection',
      role: 'maintainer',
      form: {
        title: 'Enable a project runner',
        submitLabel: 'Enable',
        fields: [
          {
            name: 'runner_id',
            label: 'Runner id',
            type: 'number',
            required: true,
            min: 1,
            help: 'A project runner of another project you maintain.',
          },
        ],
      },
      done: 'Runner enabled in this project.',
    },
    {
      key: 'disable',
      label: 'Disable here',
      method: 'DELETE',
      path: '/projects/:project/runners/{id}',
      on: 'item',
      role: 'maintainer',
      danger: true,
      visible: (r) => r.runner_type === 'project_type',
      confirm: (r) => `Disable runner ${(r.description as string | null) || `#${String(r.id)}`} in this project?`,
      outcome: 'list',
      done: 'Runner disabled in this project.',
    },
  ],
}

// ---- Operations --------------------------------------------------------------------------------

export const projectEnvironments: ResourceDescription = {
  key: 'environments',
  family: 'operations',
  title: 'Environments',
  singular: 'environment',
  scope: 'project',
  description: 'Where the project deploys, with their states. Review apps live in folders such as review/.',
  readRole: 'reporter',
  titleField: 'name',
  list: {
    path: '/projects/:project/environments',
    query: { per_page: 20 },
    columns: [
      { field: 'name', label: 'Environment', primary: true, width: 'minmax(0, 2fr)' },
      { field: 'state', label: 'State', format: 'state', width: '110px' },
      {
        field: 'tier',
        label: 'Tier',
        format: 'state',
        width: '120px',
        tones: { production: 'warning', staging: 'info' },
      },
      { field: 'external_url', label: 'URL', format: 'link', width: 'minmax(0, 2fr)' },
      { field: 'updated_at', label: 'Updated', format: 'relative', width: '130px' },
    ],
    filters: [
      { kind: 'search', param: 'search', label: 'Search', placeholder: 'Name, 3+ characters', minLength: 3 },
      { kind: 'select', param: 'states', label: 'State', options: options('available', 'stopping', 'stopped') },
    ],
  },
  detail: {
    path: '/projects/:project/environments/{id}',
    fields: [
      { field: 'name', label: 'Name' },
      { field: 'slug', label: 'Slug', format: 'code' },
      { field: 'state', label: 'State', format: 'state' },
      { field: 'tier', label: 'Tier', format: 'state', tones: { production: 'warning', staging: 'info' } },
      { field: 'external_url', label: 'URL', format: 'link' },
      { field: 'description', label: 'Description' },
      { field: 'auto_stop_at', label: 'Stops automatically', format: 'datetime' },
      { field: 'auto_stop_setting', label: 'Auto stop', format: 'state' },
      { field: 'last_deployment.iid', label: 'Last deployment', format: 'code' },
      { field: 'last_deployment.ref', label: 'Last deployed ref', format: 'code' },
      { field: 'last_deployment.status', label: 'Last deployment status', format: 'state' },
      { field: 'last_deployment.created_at', label: 'Last deployed', format: 'relative' },
      { field: 'created_at', label: 'Created', format: 'datetime' },
    ],
  },
  create: {
    title: 'New environment',
    method: 'POST',
    path: '/projects/:project/environments',
    role: 'developer',
    outcome: 'detail',
    fields: [
      {
        name: 'name',
        label: 'Name',
        type: 'text',
        required: true,
        maxLength: 255,
        help: 'Slashes make folders: review/my-branch.',
      },
      { name: 'external_url', label: 'External URL', type: 'url' },
      {
        name: 'tier',
        label: 'Tier',
        type: 'select',
        options: options('production', 'staging', 'testing', 'development', 'other'),
      },
      { name: 'description', label: 'Description', type: 'textarea' },
    ],
  },
  edit: {
    title: 'Edit environment',
    method: 'PUT',
    path: '/projects/:project/environments/{id}',
    role: 'developer',
    fields: [
      { name: 'external_url', label: 'External URL', type: 'url' },
      {
        name: 'tier',
        label: 'Tier',
        type: 'select',
        options: options('production', 'staging', 'testing', 'development', 'other'),
      },
      { name: 'description', label: 'Description', type: 'textarea' },
    ],
  },
  actions: [
    {
      key: 'stop',
      label: 'Stop',
      method: 'POST',
      path: '/projects/:project/environments/{id}/stop',
      on: 'item',
      role: 'developer',
      visible: (e) => e.state === 'available',
      confirm: (e) => `Stop ${String(e.name)}? Its stop job runs, if it has one.`,
      done: (e) =>
        (e as Item | null)?.state === 'stopping'
          ? 'Stopping: the environment’s stop job runs first.'
          : 'Environment stopped.',
    },
    {
      key: 'delete',
      label: 'Delete',
      method: 'DELETE',
      path: '/projects/:project/environments/{id}',
      on: 'item',
      role: 'developer',
      danger: true,
      visible: (e) => e.state === 'stopped',
      confirm: (e) => `Delete ${String(e.name)} and its deployment history?`,
      outcome: 'list',
      done: 'Environment deleted.',
    },
    {
      key: 'review-apps',
      label: 'Clean up review apps',
      method: 'DELETE',
      path: '/projects/:project/environments/review_apps',
      on: 'collection',
      role: 'developer',
      form: {
        title: 'Clean up stopped review apps',
        submitLabel: 'Find review apps',
        queryFields: ['before', 'limit', 'dry_run'],
        fields: [
          { name: 'before', label: 'Stopped before', type: 'datetime', help: 'Default: 30 days ago.' },
          { name: 'limit', label: 'At most', type: 'number', min: 1, max: 1000, default: 100 },
          { name: 'dry_run', label: 'Dry run: only list what would be deleted', type: 'boolean', default: true },
        ],
      },
      outcome: 'show',
      done: 'Review apps found.',
    },
  ],
}

/** Who a protected environment lets deploy: each rule's role, user or group, as the server names them. */
const deployers = (e: Item): string[] =>
  ((e.deploy_access_levels as Item[] | undefined) ?? []).map((l) => {
    const name = String(l.access_level_description ?? l.access_level)
    return l.user_id !== null && l.user_id !== undefined
      ? `User: ${name}`
      : l.group_id !== null && l.group_id !== undefined
        ? `Group: ${name}`
        : name
  })

const DEPLOY_LEVELS = [
  { value: 30, label: 'Developers and maintainers' },
  { value: 40, label: 'Maintainers' },
  { value: 60, label: 'Administrators' },
]

export const projectProtectedEnvironments: ResourceDescription = {
  key: 'protected-environments',
  family: 'operations',
  title: 'Protected environments',
  singular: 'protected environment',
  scope: 'project',
  description: 'Environments only some roles, users or groups may deploy to.',
  readRole: 'maintainer',
  tier: 'Premium',
  titleField: 'name',
  list: {
    path: '/projects/:project/protected_environments',
    key: 'name',
    query: { per_page: 20 },
    columns: [
      { field: 'name', label: 'Environment', primary: true, width: 'minmax(0, 1fr)' },
      {
        field: 'deploy_access_levels',
        label: 'Allowed to deploy',
        format: 'list',
        width: 'minmax(0, 3fr)',
        value: deployers,
      },
    ],
  },
  detail: {
    path: '/projects/:project/protected_environments/{name}',
    fields: [
      { field: 'name', label: 'Environment' },
      { field: 'deploy_access_levels', label: 'Allowed to deploy', format: 'list', value: deployers },
    ],
  },
  create: {
    title: 'Protect an environment',
    method: 'POST',
    path: '/projects/:project/protected_environments',
    role: 'maintainer',
    outcome: 'detail',
    submitLabel: 'Protect',
    fields: [
      { name: 'name', label: 'Environment name', type: 'text', required: true },
      { name: 'access_level', label: 'Role allowed to deploy', type: 'select', options: DEPLOY_LEVELS, default: 40 },
      {
        name: 'user_ids',
        label: 'Also these users (ids)',
        type: 'tags',
        pattern: { source: '\\d+', message: 'User ids are numbers.' },
      },
      {
        name: 'group_ids',
        label: 'Also these groups (ids)',
        type: 'tags',
        pattern: { source: '\\d+', message: 'Group ids are numbers.' },
      },
    ],
    validate: (v): Record<string, string> =>
      v.access_level === null &&
      ((v.user_ids as readonly string[] | null) ?? []).length === 0 &&
      ((v.group_ids as readonly string[] | null) ?? []).length === 0
        ? { access_level: 'Choose who may deploy: a role, users or groups.' }
        : {},
    // deploy_access_levels is an array of {access_level} | {user_id} | {group_id}.
    toBody: (v: FormValues) => ({
      name: String(v.name ?? ''),
      deploy_access_levels: [
        ...(v.access_level === null || v.access_level === undefined ? [] : [{ access_level: Number(v.access_level) }]),
        ...((v.user_ids as readonly string[] | null) ?? []).map((id) => ({ user_id: Number(id) })),
        ...((v.group_ids as readonly string[] | null) ?? []).map((id) => ({ group_id: Number(id) })),
      ],
    }),
  },
  actions: [
    {
      key: 'unprotect',
      label: 'Unprotect',
      method: 'DELETE',
      path: '/projects/:project/protected_environments/{name}',
      on: 'item',
      role: 'maintainer',
      danger: true,
      confirm: (e) => `Unprotect ${String(e.name)}? Anyone who can deploy may deploy to it.`,
      outcome: 'list',
      done: 'Environment unprotected.',
    },
  ],
}

export const projectDeployments: ResourceDescription = {
  key: 'deployments',
  family: 'operations',
  title: 'Deployments',
  singular: 'deployment',
  scope: 'project',
  description: 'Deployments to the project’s environments.',
  readRole: 'reporter',
  titleField: 'iid',
  list: {
    path: '/projects/:project/deployments',
    // The API lists oldest first by default.
    query: { per_page: 20, order_by: 'id', sort: 'desc' },
    columns: [
      { field: 'iid', label: 'Deployment', primary: true, width: '120px', value: (d) => `#${String(d.iid)}` },
      { field: 'environment.name', label: 'Environment', width: 'minmax(0, 1.6fr)' },
      { field: 'status', label: 'Status', format: 'state', width: '100px' },
      { field: 'ref', label: 'Ref', format: 'code', width: 'minmax(0, 1.2fr)' },
      { field: 'sha', label: 'Commit', format: 'code', width: '90px', value: shortSha },
      { field: 'user', label: 'By', format: 'user', width: 'minmax(0, 1fr)' },
      { field: 'created_at', label: 'Created', format: 'relative', width: '130px' },
    ],
    filters: [
      { kind: 'search', param: 'environment', label: 'Environment', placeholder: 'Exact environment name' },
      {
        kind: 'select',
        param: 'status',
        label: 'Status',
        options: options('created', 'running', 'success', 'failed', 'canceled', 'skipped', 'blocked'),
      },
      {
        kind: 'select',
        param: 'order_by',
        label: 'Order by',
        options: options('id', 'iid', 'created_at', 'updated_at', 'finished_at', 'ref'),
      },
      SORT,
      { kind: 'datetime', param: 'updated_after', label: 'Updated after' },
    ],
  },
  detail: {
    path: '/projects/:project/deployments/{id}',
    fields: [
      { field: 'iid', label: 'Deployment', format: 'code' },
      { field: 'status', label: 'Status', format: 'state' },
      { field: 'environment.name', label: 'Environment' },
      { field: 'ref', label: 'Ref', format: 'code' },
      { field: 'sha', label: 'Commit', format: 'code' },
      { field: 'user', label: 'By', format: 'user' },
      { field: 'deployable.name', label: 'Job' },
      { field: 'deployable.status', label: 'Job status', format: 'state' },
      { field: 'deployable.pipeline.id', label: 'Pipeline', format: 'code' },
      { field: 'created_at', label: 'Created', format: 'datetime' },
      { field: 'finished_at', label: 'Finished', format: 'datetime' },
      { field: 'updated_at', label: 'Updated', format: 'datetime' },
    ],
  },
  actions: [
    {
      key: 'delete',
      label: 'Delete',
      method: 'DELETE',
      path: '/projects/:project/deployments/{id}',
      on: 'item',
      role: 'maintainer',
      danger: true,
      visible: (d) => d.status !== 'running',
      confirm: (d) => `Delete deployment #${String(d.iid)}?`,
      outcome: 'list',
      done: 'Deployment deleted.',
    },
  ],
}

const AUTH_TYPES = [
  { value: 'rbac', label: 'RBAC' },
  { value: 'abac', label: 'ABAC' },
  { value: 'unknown_authorization', label: 'Unknown' },
]

export const projectClusters: ResourceDescription = {
  key: 'clusters',
  family: 'operations',
  title: 'Clusters',
  singular: 'cluster',
  scope: 'project',
  description: 'Kubernetes clusters added to the project (certificate-based).',
  readRole: 'maintainer',
  titleField: 'name',
  list: {
    path: '/projects/:project/clusters',
    query: { per_page: 20 },
    columns: [
      { field: 'name', label: 'Cluster', primary: true, width: 'minmax(0, 1fr)' },
      { field: 'environment_scope', label: 'Environment scope', format: 'code', width: '150px' },
      { field: 'platform_cluster.api_url', label: 'API URL', format: 'code', width: 'minmax(0, 2fr)' },
      { field: 'enabled', label: 'Enabled', format: 'boolean', width: '80px' },
      { field: 'managed', label: 'Managed', format: 'boolean', width: '90px' },
      { field: 'created_at', label: 'Added', format: 'relative', width: '130px' },
    ],
  },
  detail: {
    path: '/projects/:project/clusters/{id}',
    fields: [
      { field: 'name', label: 'Name' },
      { field: 'domain', label: 'Base domain' },
      { field: 'environment_scope', label: 'Environment scope', format: 'code' },
      { field: 'enabled', label: 'Enabled', format: 'boolean' },
      { field: 'managed', label: 'Managed by GitLab', format: 'boolean' },
      { field: 'platform_cluster.api_url', label: 'API URL', format: 'code' },
      { field: 'platform_cluster.namespace', label: 'Namespace', format: 'code' },
      { field: 'platform_cluster.authorization_type', label: 'Authorization', format: 'state' },
      { field: 'platform_cluster.ca_cert', label: 'CA certificate', format: 'pem' },
      { field: 'management_project.path_with_namespace', label: 'Management project', format: 'code' },
      { field: 'user', label: 'Added by', format: 'user' },
      { field: 'created_at', label: 'Added', format: 'datetime' },
    ],
  },
  create: {
    title: 'Add a cluster',
    method: 'POST',
    path: '/projects/:project/clusters/user',
    role: 'maintainer',
    outcome: 'detail',
    submitLabel: 'Add cluster',
    fields: [
      { name: 'name', label: 'Name', type: 'text', required: true },
      { name: 'platform_cluster_attributes.api_url', label: 'API URL', type: 'url', required: true },
      {
        name: 'platform_cluster_attributes.token',
        label: 'Service token',
        type: 'password',
        required: true,
        help: 'Sent to the server once; Burrow does not keep it.',
      },
      {
        name: 'platform_cluster_attributes.ca_cert',
        label: 'CA certificate (PEM)',
        type: 'pem',
        help: 'Needed when the API uses a self-signed certificate.',
      },
      { name: 'platform_cluster_attributes.namespace', label: 'Namespace', type: 'text' },
      {
        name: 'platform_cluster_attributes.authorization_type',
        label: 'Authorization',
        type: 'select',
        options: AUTH_TYPES,
        default: 'rbac',
      },
      { name: 'domain', label: 'Base domain', type: 'text' },
      { name: 'environment_scope', label: 'Environment scope', type: 'text', default: '*' },
      { name: 'enabled', label: 'Enabled', type: 'boolean', default: true },
      { name: 'managed', label: 'Managed by GitLab', type: 'boolean', default: true },
    ],
  },
  edit: {
    title: 'Edit cluster',
    method: 'PUT',
    path: '/projects/:project/clusters/{id}',
    role: 'maintainer',
    fields: [
      { name: 'name', label: 'Name', type: 'text', required: true },
      { name: 'platform_cluster_attributes.api_url', label: 'API URL', type: 'url', from: 'platform_cluster.api_url' },
      {
        name: 'platform_cluster_attributes.token',
        label: 'New service token',
        type: 'password',
        help: 'Leave empty to keep the current one.',
      },
      {
        name: 'platform_cluster_attributes.ca_cert',
        label: 'CA certificate (PEM)',
        type: 'pem',
        from: 'platform_cluster.ca_cert',
      },
      {
        name: 'platform_cluster_attributes.namespace',
        label: 'Namespace',
        type: 'text',
        from: 'platform_cluster.namespace',
      },
      { name: 'domain', label: 'Base domain', type: 'text' },
      { name: 'environment_scope', label: 'Environment scope', type: 'text' },
      { name: 'enabled', label: 'Enabled', type: 'boolean' },
      { name: 'managed', label: 'Managed by GitLab', type: 'boolean' },
    ],
  },
  actions: [
    {
      key: 'delete',
      label: 'Remove',
      method: 'DELETE',
      path: '/projects/:project/clusters/{id}',
      on: 'item',
      role: 'maintainer',
      danger: true,
      confirm: (c) => `Remove cluster ${String(c.name)} from the project? The cluster itself is left alone.`,
      outcome: 'list',
      done: 'Cluster removed.',
    },
  ],
}

/** A project's Pages domain shows whether its certificate has expired, not when it does (GitLab's PagesDomain entity). */
const certificateState = (d: Item): string => {
  const certificate = d.certificate as Item | undefined
  if (certificate === undefined || certificate === null) return 'none'
  return certificate.expired === true ? 'expired' : 'valid'
}

const certificateRule = (v: FormValues): Record<string, string> => {
  const cert = typeof v.certificate === 'string' && v.certificate.trim() !== ''
  const key = typeof v.key === 'string' && v.key.trim() !== ''
  if (cert && !key) return { key: 'A certificate needs its private key.' }
  if (key && !cert) return { certificate: 'A private key needs its certificate.' }
  return {}
}

export const projectPagesDomains: ResourceDescription = {
  key: 'pages-domains',
  family: 'operations',
  title: 'Pages domains',
  singular: 'Pages domain',
  scope: 'project',
  description: 'Custom domains of the project’s Pages site, with their certificates.',
  readRole: 'maintainer',
  titleField: 'domain',
  list: {
    path: '/projects/:project/pages/domains',
    key: 'domain',
    query: { per_page: 20 },
    columns: [
      { field: 'domain', label: 'Domain', primary: true, width: 'minmax(0, 2fr)' },
      { field: 'url', label: 'URL', format: 'link', width: 'minmax(0, 2fr)' },
      { field: 'auto_ssl_enabled', label: 'Let’s Encrypt', format: 'boolean', width: '130px' },
      {
        field: 'certificate',
        label: 'Certificate',
        format: 'state',
        width: '130px',
        value: certificateState,
        tones: { valid: 'success', expired: 'error', none: 'default' },
      },
      { field: 'certificate.subject', label: 'Subject', format: 'code', width: 'minmax(0, 2fr)' },
    ],
  },
  detail: {
    path: '/projects/:project/pages/domains/{domain}',
    fields: [
      { field: 'domain', label: 'Domain' },
      { field: 'url', label: 'URL', format: 'link' },
      { field: 'auto_ssl_enabled', label: 'Let’s Encrypt', format: 'boolean' },
      {
        field: 'certificate',
        label: 'Certificate',
        format: 'state',
        value: certificateState,
        tones: { valid: 'success', expired: 'error', none: 'default' },
      },
      { field: 'certificate.subject', label: 'Certificate subject', format: 'code' },
      { field: 'certificate.certificate_text', label: 'Certificate details', format: 'pem' },
      { field: 'certificate.certificate', label: 'Certificate (PEM)', format: 'pem' },
    ],
  },
  create: {
    title: 'New Pages domain',
    method: 'POST',
    path: '/projects/:project/pages/domains',
    role: 'maintainer',
    outcome: 'detail',
    fields: [
      {
        name: 'domain',
        label: 'Domain',
        type: 'text',
        required: true,
        pattern: {
          source: '[a-zA-Z0-9]([a-zA-Z0-9-]*[a-zA-Z0-9])?(\\.[a-zA-Z0-9]([a-zA-Z0-9-]*[a-zA-Z0-9])?)+',
          message: 'A host name such as docs.example.com.',
        },
      },
      { name: 'auto_ssl_enabled', label: 'Get a certificate from Let’s Encrypt', type: 'boolean' },
      {
        name: 'certificate',
        label: 'Certificate (PEM, with intermediates)',
        type: 'pem',
        when: (v) => v.auto_ssl_enabled !== true,
      },
      {
        name: 'key',
        label: 'Private key (PEM)',
        type: 'pem',
        when: (v) => v.auto_ssl_enabled !== true,
        help: 'Sent to the server once; Burrow does not keep it.',
      },
    ],
    validate: certificateRule,
  },
  edit: {
    title: 'Edit Pages domain',
    method: 'PUT',
    path: '/projects/:project/pages/domains/{domain}',
    role: 'maintainer',
    fields: [
      { name: 'auto_ssl_enabled', label: 'Get a certificate from Let’s Encrypt', type: 'boolean' },
      {
        name: 'certificate',
        label: 'New certificate (PEM)',
        type: 'pem',
        from: 'certificate.certificate',
        when: (v) => v.auto_ssl_enabled !== true,
      },
      { name: 'key', label: 'Its private key (PEM)', type: 'pem', when: (v) => v.auto_ssl_enabled !== true },
    ],
    validate: certificateRule,
  },
  actions: [
    {
      key: 'delete',
      label: 'Delete',
      method: 'DELETE',
      path: '/projects/:project/pages/domains/{domain}',
      on: 'item',
      role: 'maintainer',
      danger: true,
      confirm: (d) => `Delete ${String(d.domain)}? The site stops answering on it.`,
      outcome: 'list',
      done: 'Domain deleted.',
    },
  ],
}

export const projectErrorTracking: ResourceDescription = {
  key: 'error-tracking',
  family: 'operations',
  title: 'Error tracking',
  singular: 'error tracking settings',
  scope: 'project',
  description: 'Whether the project collects errors, with GitLab’s integrated tracker or an external one.',
  readRole: 'maintainer',
  singleton: {
    path: '/projects/:project/error_tracking/settings',
    fields: [
      { field: 'active', label: 'Active', format: 'boolean' },
      { field: 'integrated', label: 'Integrated tracker', format: 'boolean' },
      { field: 'project_name', label: 'External project' },
      { field: 'api_url', label: 'API URL', format: 'code' },
      { field: 'tracker_external_url', label: 'Tracker', format: 'link' },
    ],
  },
  edit: {
    title: 'Error tracking settings',
    method: 'PATCH',
    path: '/projects/:project/error_tracking/settings',
    role: 'maintainer',
    fields: [
      { name: 'active', label: 'Active', type: 'boolean' },
      { name: 'integrated', label: 'Use the integrated tracker', type: 'boolean', default: true },
    ],
    // `active` is required by the API even when unchanged.
    toBody: (v) => ({ active: v.active === true, integrated: v.integrated === true }),
  },
}

export const projectClientKeys: ResourceDescription = {
  key: 'client-keys',
  family: 'operations',
  title: 'Error tracking keys',
  singular: 'client key',
  scope: 'project',
  description: 'Keys (DSNs) that SDKs use to send errors to the integrated tracker.',
  readRole: 'maintainer',
  titleField: 'public_key',
  list: {
    path: '/projects/:project/error_tracking/client_keys',
    columns: [
      { field: 'public_key', label: 'Public key', format: 'code', primary: true, width: 'minmax(0, 1fr)' },
      { field: 'tracker_dsn', label: 'DSN', format: 'code', width: 'minmax(0, 2fr)' },
      { field: 'active', label: 'Active', format: 'boolean', width: '80px' },
    ],
  },
  detail: {
    fields: [
      { field: 'public_key', label: 'Public key', format: 'code' },
      { field: 'tracker_dsn', label: 'DSN', format: 'code' },
      { field: 'active', label: 'Active', format: 'boolean' },
    ],
  },
  actions: [
    {
      key: 'generate',
      label: 'Generate key',
      method: 'POST',
      path: '/projects/:project/error_tracking/client_keys',
      on: 'collection',
      role: 'maintainer',
      done: 'Key generated.',
    },
    {
      key: 'delete',
      label: 'Delete',
      method: 'DELETE',
      path: '/projects/:project/error_tracking/client_keys/{id}',
      on: 'item',
      role: 'maintainer',
      danger: true,
      confirm: 'Delete this key? SDKs using its DSN can no longer send errors.',
      outcome: 'list',
      done: 'Key deleted.',
    },
  ],
}

// ---- Security ----------------------------------------------------------------------------------

const SEVERITY_TONES = {
  critical: 'error',
  high: 'error',
  medium: 'warning',
  low: 'info',
  info: 'info',
  unknown: 'default',
} as const
/** Not triaged yet reads as a warning, whichever name the server gives it. */
const VULNERABILITY_STATE_TONES = {
  opened: 'warning',
  detected: 'warning',
  confirmed: 'error',
  resolved: 'success',
  dismissed: 'default',
} as const

/** GitLab's names of the security scanners' report types (`sast` → `SAST`). */
const SCANNERS: Readonly<Record<string, string>> = {
  sast: 'SAST',
  dast: 'DAST',
  dependency_scanning: 'Dependency scanning',
  container_scanning: 'Container scanning',
  secret_detection: 'Secret detection',
  coverage_fuzzing: 'Coverage fuzzing',
  api_fuzzing: 'API fuzzing',
  cluster_image_scanning: 'Cluster image scanning',
  generic: 'Generic',
}
const scannerName = (type: unknown): string | null =>
  typeof type === 'string' ? (SCANNERS[type] ?? humanize(type)) : null

/** The scanner's report of a finding (`raw_metadata`, JSON text), or null when it is not JSON. */
function findingReport(v: Item): Item | null {
  const raw = (v.finding as Item | undefined)?.raw_metadata
  if (typeof raw !== 'string') return null
  try {
    const parsed: unknown = JSON.parse(raw)
    return parsed !== null && typeof parsed === 'object' ? (parsed as Item) : null
  } catch {
    return null
  }
}

/** `src/db/query.js:40–42`, or the dependency a dependency scan names. */
const findingLocation = (v: Item): string | null => {
  const location = findingReport(v)?.location as Item | undefined
  if (location === undefined) return null
  if (typeof location.file === 'string')
    return `${location.file}${typeof location.start_line === 'number' ? `:${location.start_line}${typeof location.end_line === 'number' && location.end_line !== location.start_line ? `–${location.end_line}` : ''}` : ''}`
  const dependency = location.dependency as Item | undefined
  const pkg = (dependency?.package as Item | undefined)?.name
  return typeof pkg === 'string' ? `${pkg} ${String(dependency?.version ?? '')}`.trim() : null
}

const findingIdentifiers = (v: Item): string[] =>
  ((findingReport(v)?.identifiers as Item[] | undefined) ?? []).map((i) => String(i.name ?? i.value))

export const projectVulnerabilities: ResourceDescription = {
  key: 'vulnerabilities',
  family: 'security',
  title: 'Vulnerabilities',
  singular: 'vulnerability',
  scope: 'project',
  description: 'Vulnerabilities found on the default branch by the security scanners.',
  readRole: 'developer',
  tier: 'Ultimate',
  titleField: 'title',
  list: {
    path: '/projects/:project/vulnerabilities',
    query: { per_page: 20 },
    columns: [
      { field: 'title', label: 'Vulnerability', primary: true, width: 'minmax(0, 3fr)' },
      { field: 'severity', label: 'Severity', format: 'state', width: '100px', tones: SEVERITY_TONES },
      { field: 'state', label: 'State', format: 'state', width: '110px', tones: VULNERABILITY_STATE_TONES },
      { field: 'report_type', label: 'Scanner', width: '170px', value: (v) => scannerName(v.report_type) },
      { field: 'created_at', label: 'Found', format: 'relative', width: '130px' },
    ],
  },
  detail: {
    path: '/vulnerabilities/{id}',
    fields: [
      { field: 'title', label: 'Title' },
      { field: 'severity', label: 'Severity', format: 'state', tones: SEVERITY_TONES },
      { field: 'confidence', label: 'Confidence', format: 'state' },
      { field: 'state', label: 'State', format: 'state', tones: VULNERABILITY_STATE_TONES },
      { field: 'report_type', label: 'Scanner', value: (v) => scannerName(v.report_type) },
      { field: 'description', label: 'Description' },
      { field: 'finding.name', label: 'Finding' },
      { field: 'location', label: 'Location', format: 'code', value: findingLocation },
      { field: 'identifiers', label: 'Identifiers', format: 'list', value: findingIdentifiers },
      { field: 'project_default_branch', label: 'Branch', format: 'code' },
      { field: 'resolved_on_default_branch', label: 'Gone from the default branch', format: 'boolean' },
      { field: 'created_at', label: 'Found', format: 'datetime' },
      { field: 'confirmed_at', label: 'Confirmed', format: 'datetime' },
      { field: 'resolved_at', label: 'Resolved', format: 'datetime' },
      { field: 'dismissed_at', label: 'Dismissed', format: 'datetime' },
    ],
  },
  actions: [
    {
      key: 'confirm',
      label: 'Confirm',
      method: 'POST',
      path: '/vulnerabilities/{id}/confirm',
      on: 'item',
      role: 'maintainer',
      visible: (v) => v.state !== 'confirmed',
      done: 'Vulnerability confirmed.',
    },
    {
      key: 'resolve',
      label: 'Resolve',
      method: 'POST',
      path: '/vulnerabilities/{id}/resolve',
      on: 'item',
      role: 'maintainer',
      visible: (v) => v.state !== 'resolved',
      done: 'Vulnerability resolved.',
    },
    {
      key: 'dismiss',
      label: 'Dismiss',
      method: 'POST',
      path: '/vulnerabilities/{id}/dismiss',
      on: 'item',
      role: 'maintainer',
      visible: (v) => v.state !== 'dismissed',
      form: {
        title: 'Dismiss vulnerability',
        submitLabel: 'Dismiss',
        fields: [
          {
            name: 'dismissal_reason',
            label: 'Reason',
            type: 'select',
            options: options(
              'acceptable_risk',
              'false_positive',
              'mitigating_control',
              'used_in_tests',
              'not_applicable',
            ),
          },
          { name: 'comment', label: 'Comment', type: 'textarea' },
        ],
      },
      done: 'Vulnerability dismissed.',
    },
    // Back to the first state: `opened` on Burrow Server, as the spec's defaults say (`detected` on GitLab 17).
    {
      key: 'revert',
      label: 'Revert',
      method: 'POST',
      path: '/vulnerabilities/{id}/revert',
      on: 'item',
      role: 'maintainer',
      visible: (v) => v.state !== 'detected' && v.state !== 'opened',
      done: (v) => `Vulnerability back to ${humanize((v as Item | null)?.state ?? 'its first state').toLowerCase()}.`,
    },
  ],
}

export const projectDependencies: ResourceDescription = {
  key: 'dependencies',
  family: 'security',
  title: 'Dependencies',
  singular: 'dependency',
  scope: 'project',
  description: 'Packages the default branch depends on, read from its lock files and manifests.',
  // The list needs the code (Reporter); each dependency's vulnerabilities need Developer.
  readRole: 'reporter',
  tier: 'Ultimate',
  titleField: 'name',
  list: {
    path: '/projects/:project/dependencies',
    key: 'name',
    query: { per_page: 20 },
    columns: [
      { field: 'name', label: 'Package', primary: true, width: 'minmax(0, 2fr)' },
      { field: 'version', label: 'Version', format: 'code', width: '120px' },
      { field: 'package_manager', label: 'Manager', width: '110px' },
      { field: 'dependency_file_path', label: 'Found in', format: 'code', width: 'minmax(0, 2fr)' },
      {
        field: 'vulnerabilities',
        label: 'Vulnerabilities',
        format: 'list',
        width: 'minmax(0, 2fr)',
        value: (d) =>
          ((d.vulnerabilities as Item[] | undefined) ?? []).map((v) => `${humanize(v.severity)}: ${String(v.name)}`),
      },
    ],
    filters: [
      {
        kind: 'select',
        param: 'package_manager',
        label: 'Package manager',
        // As the tools write their own names.
        options: [
          { value: 'bundler', label: 'Bundler' },
          { value: 'composer', label: 'Composer' },
          { value: 'conan', label: 'Conan' },
          { value: 'maven', label: 'Maven' },
          { value: 'npm', label: 'npm' },
          { value: 'pip', label: 'pip' },
          { value: 'yarn', label: 'Yarn' },
        ],
      },
    ],
  },
}

// ---- Projects: members, access, protected branches, audit --------------------------------------

const projectMembers = memberForms('/projects/:project/members', true)

export const projectMemberList: ResourceDescription = {
  key: 'members',
  family: 'projects',
  title: 'Members',
  singular: 'member',
  scope: 'project',
  description: 'Direct members of the project (members of its groups are listed on the group).',
  readRole: 'signed-in',
  titleField: 'username',
  list: {
    path: '/projects/:project/members',
    query: { per_page: 20 },
    columns: MEMBER_COLUMNS,
    filters: [{ kind: 'search', param: 'query', label: 'Search', placeholder: 'Name or username' }],
  },
  detail: { path: '/projects/:project/members/{id}', fields: MEMBER_COLUMNS },
  create: projectMembers.create,
  edit: projectMembers.edit,
  actions: projectMembers.actions,
}

export const projectAccessRequests: ResourceDescription = {
  key: 'access-requests',
  family: 'projects',
  title: 'Access requests',
  singular: 'access request',
  scope: 'project',
  description: 'People asking to join the project.',
  readRole: 'maintainer',
  titleField: 'username',
  list: { path: '/projects/:project/access_requests', query: { per_page: 20 }, columns: ACCESS_REQUEST_COLUMNS },
  actions: accessRequestActions('/projects/:project/access_requests', true),
}

const BRANCH_LEVELS = [
  { value: 0, label: 'No one' },
  { value: 30, label: 'Developers and maintainers' },
  { value: 40, label: 'Maintainers' },
  { value: 60, label: 'Administrators' },
]
const levels = (key: string) => (b: Item) =>
  ((b[key] as Item[] | undefined) ?? []).map((l) => l.access_level_description ?? l.access_level)

export const projectProtectedBranches: ResourceDescription = {
  key: 'protected-branches',
  family: 'projects',
  title: 'Protected branches',
  singular: 'protected branch',
  scope: 'project',
  description: 'Branches (or wildcards) only some roles may push to or merge into.',
  readRole: 'signed-in',
  titleField: 'name',
  list: {
    path: '/projects/:project/protected_branches',
    key: 'name',
    query: { per_page: 20 },
    columns: [
      { field: 'name', label: 'Branch', format: 'code', primary: true, width: 'minmax(0, 1fr)' },
      {
        field: 'push_access_levels',
        label: 'Allowed to push',
        width: 'minmax(0, 1fr)',
        value: levels('push_access_levels'),
      },
      {
        field: 'merge_access_levels',
        label: 'Allowed to merge',
        width: 'minmax(0, 1fr)',
        value: levels('merge_access_levels'),
      },
      { field: 'allow_force_push', label: 'Force push', format: 'boolean', width: '100px' },
      { field: 'code_owner_approval_required', label: 'Code owners', format: 'boolean', width: '110px' },
    ],
    filters: [{ kind: 'search', param: 'search', label: 'Search', placeholder: 'Branch name' }],
  },
  detail: {
    path: '/projects/:project/protected_branches/{name}',
    fields: [
      { field: 'name', label: 'Branch', format: 'code' },
      { field: 'push_access_levels', label: 'Allowed to push', format: 'list', value: levels('push_access_levels') },
      { field: 'merge_access_levels', label: 'Allowed to merge', format: 'list', value: levels('merge_access_levels') },
      {
        field: 'unprotect_access_levels',
        label: 'Allowed to unprotect',
        format: 'list',
        value: levels('unprotect_access_levels'),
      },
      { field: 'allow_force_push', label: 'Force push allowed', format: 'boolean' },
      { field: 'code_owner_approval_required', label: 'Code owner approval required', format: 'boolean' },
    ],
  },
  create: {
    title: 'Protect a branch',
    method: 'POST',
    path: '/projects/:project/protected_branches',
    role: 'maintainer',
    outcome: 'detail',
    submitLabel: 'Protect',
    fields: [
      { name: 'name', label: 'Branch or wildcard', type: 'text', required: true, placeholder: 'main, release/*' },
      { name: 'push_access_level', label: 'Allowed to push', type: 'select', options: BRANCH_LEVELS, default: 40 },
      { name: 'merge_access_level', label: 'Allowed to merge', type: 'select', options: BRANCH_LEVELS, default: 40 },
      {
        name: 'unprotect_access_level',
        label: 'Allowed to unprotect',
        type: 'select',
        options: BRANCH_LEVELS.filter((l) => l.value >= 40),
      },
      { name: 'allow_force_push', label: 'Allow force push', type: 'boolean' },
      { name: 'code_owner_approval_required', label: 'Require code owner approval', type: 'boolean' },
    ],
  },
  edit: {
    title: 'Edit protected branch',
    method: 'PATCH',
    path: '/projects/:project/protected_branches/{name}',
    role: 'maintainer',
    fields: [
      { name: 'allow_force_push', label: 'Allow force push', type: 'boolean' },
      { name: 'code_owner_approval_required', label: 'Require code owner approval', type: 'boolean' },
    ],
  },
  actions: [
    {
      key: 'unprotect',
      label: 'Unprotect',
      method: 'DELETE',
      path: '/projects/:project/protected_branches/{name}',
      on: 'item',
      role: 'maintainer',
      danger: true,
      confirm: (b) => `Unprotect ${String(b.name)}? Developers can then push to it and delete it.`,
      outcome: 'list',
      done: 'Branch unprotected.',
    },
  ],
}

const createLevels = levels('create_access_levels')
/** The roles a protected tag may let create it (GitLab's Administrators level is not kept by the server). */
const TAG_LEVELS = BRANCH_LEVELS.filter((l) => l.value <= 40)

export const projectProtectedTags: ResourceDescription = {
  key: 'protected-tags',
  family: 'projects',
  title: 'Protected tags',
  singular: 'protected tag',
  scope: 'project',
  description: 'Tags (or wildcards) only some roles may create, update or delete.',
  readRole: 'maintainer',
  titleField: 'name',
  list: {
    path: '/projects/:project/protected_tags',
    key: 'name',
    query: { per_page: 20 },
    columns: [
      { field: 'name', label: 'Tag', format: 'code', primary: true, width: 'minmax(0, 1fr)' },
      { field: 'create_access_levels', label: 'Allowed to create', width: 'minmax(0, 1fr)', value: createLevels },
    ],
  },
  detail: {
    path: '/projects/:project/protected_tags/{name}',
    fields: [
      { field: 'name', label: 'Tag', format: 'code' },
      { field: 'create_access_levels', label: 'Allowed to create', format: 'list', value: createLevels },
    ],
  },
  create: {
    title: 'Protect a tag',
    method: 'POST',
    path: '/projects/:project/protected_tags',
    role: 'maintainer',
    outcome: 'detail',
    submitLabel: 'Protect',
    fields: [
      { name: 'name', label: 'Tag or wildcard', type: 'text', required: true, placeholder: 'v1.0.0, release-*' },
      { name: 'create_access_level', label: 'Allowed to create', type: 'select', options: TAG_LEVELS, default: 40 },
    ],
  },
  actions: [
    {
      key: 'unprotect',
      label: 'Unprotect',
      method: 'DELETE',
      path: '/projects/:project/protected_tags/{name}',
      on: 'item',
      role: 'maintainer',
      danger: true,
      confirm: (t) => `Unprotect ${String(t.name)}? Developers can then create, update and delete matching tags.`,
      outcome: 'list',
      done: 'Tag unprotected.',
    },
  ],
}

/** A release's milestones as the lists show them (titles). */
const milestoneTitles = (r: Item): string[] => ((r.milestones as Item[] | undefined) ?? []).map((m) => String(m.title))
const RELEASE_LINK_TYPES = options('other', 'runbook', 'image', 'package')
/** A release's asset links, each opening its URL, their kind in words (`runbook` → Runbook) as the Add link form offers it. */
export const assetLinks = (r: Item): NamedLink[] =>
  (((r.assets as Item | undefined)?.links as Item[] | undefined) ?? []).map((l) => ({
    name: String(l.name),
    url: String(l.url),
    kind:
      typeof l.link_type === 'string'
        ? (RELEASE_LINK_TYPES.find((o) => o.value === l.link_type)?.label ?? humanize(l.link_type))
        : undefined,
  }))

export const projectReleases: ResourceDescription = {
  key: 'releases',
  family: 'projects',
  title: 'Releases',
  singular: 'release',
  scope: 'project',
  description: 'Releases of the project: a tag with notes, milestones and links to its assets.',
  titleField: 'name',
  list: {
    path: '/projects/:project/releases',
    key: 'tag_name',
    query: { per_page: 20 },
    columns: [
      { field: 'name', label: 'Release', primary: true, width: 'minmax(0, 2fr)' },
      { field: 'tag_name', label: 'Tag', format: 'code', width: 'minmax(0, 1fr)' },
      { field: 'author', label: 'Author', format: 'user', width: 'minmax(0, 1fr)' },
      { field: 'milestones', label: 'Milestones', format: 'list', width: 'minmax(0, 1fr)', value: milestoneTitles },
      { field: 'assets.count', label: 'Assets', format: 'number', width: '80px' },
      { field: 'released_at', label: 'Released', format: 'relative', width: '130px' },
    ],
    filters: [
      {
        kind: 'select',
        param: 'order_by',
        label: 'Order by',
        options: [
          { value: 'released_at', label: 'Release date' },
          { value: 'created_at', label: 'Creation date' },
        ],
      },
      SORT,
    ],
  },
  detail: {
    path: '/projects/:project/releases/{tag_name}',
    fields: [
      { field: 'name', label: 'Name' },
      { field: 'tag_name', label: 'Tag', format: 'code' },
      { field: 'description', label: 'Release notes' },
      { field: 'released_at', label: 'Released', format: 'datetime' },
      { field: 'upcoming_release', label: 'Upcoming', format: 'boolean' },
      { field: 'author', label: 'Author', format: 'user' },
      { field: 'commit.short_id', label: 'Commit', format: 'code' },
      { field: 'commit.title', label: 'Commit title' },
      { field: 'milestones', label: 'Milestones', format: 'list', value: milestoneTitles },
      { field: 'assets.links', label: 'Links', format: 'links', value: assetLinks },
      { field: 'created_at', label: 'Created', format: 'datetime' },
      { field: '_links.self', label: 'Web page', format: 'link' },
    ],
  },
  create: {
    title: 'New release',
    method: 'POST',
    path: '/projects/:project/releases',
    role: 'developer',
    outcome: 'detail',
    submitLabel: 'Create release',
    fields: [
      { name: 'tag_name', label: 'Tag', type: 'text', required: true, placeholder: 'v1.0.0' },
      {
        name: 'ref',
        label: 'Create the tag from',
        type: 'text',
        placeholder: 'main',
        help: 'A branch, tag or commit; needed only when the tag does not exist yet.',
      },
      { name: 'name', label: 'Name', type: 'text', maxLength: 255, help: 'The tag when left empty.' },
      { name: 'description', label: 'Release notes', type: 'textarea' },
      { name: 'milestones', label: 'Milestones', type: 'tags', placeholder: 'Milestone titles' },
      { name: 'released_at', label: 'Release date', type: 'datetime', help: 'Now when left empty.' },
    ],
  },
  edit: {
    title: 'Edit release',
    method: 'PUT',
    path: '/projects/:project/releases/{tag_name}',
    role: 'developer',
    fields: [
      { name: 'name', label: 'Name', type: 'text', required: true, maxLength: 255 },
      { name: 'description', label: 'Release notes', type: 'textarea' },
      { name: 'released_at', label: 'Release date', type: 'datetime' },
    ],
  },
  actions: [
    {
      key: 'add-link',
      label: 'Add link',
      method: 'POST',
      path: '/projects/:project/releases/{tag_name}/assets/links',
      on: 'item',
      role: 'developer',
      form: {
        title: 'Add a link to an asset',
        submitLabel: 'Add link',
        fields: [
          { name: 'name', label: 'Name', type: 'text', required: true },
          { name: 'url', label: 'URL', type: 'url', required: true },
          { name: 'link_type', label: 'Type', type: 'select', options: RELEASE_LINK_TYPES, default: 'other' },
          {
            name: 'direct_asset_path',
            label: 'Direct asset path',
            type: 'text',
            placeholder: '/bin/app',
            help: 'A permanent path below the release, starting with /, that redirects to the URL.',
          },
        ],
      },
      done: 'Link added.',
    },
    {
      key: 'delete',
      label: 'Delete',
      method: 'DELETE',
      path: '/projects/:project/releases/{tag_name}',
      on: 'item',
      role: 'maintainer',
      danger: true,
      confirm: (r) => `Delete release ${String(r.name)}? Its tag ${String(r.tag_name)} stays.`,
      outcome: 'list',
      done: 'Release deleted.',
    },
  ],
}

/** GitLab's languages answer (`{ "Go": 61.2, "Shell": 38.8 }`) as rows, largest share first. */
function languageRows(body: unknown): Item[] {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return []
  return Object.entries(body as Record<string, unknown>)
    .filter((entry): entry is [string, number] => typeof entry[1] === 'number')
    .sort((a, b) => b[1] - a[1])
    .map(([language, share]) => ({ language, share }))
}

export const projectLanguages: ResourceDescription = {
  key: 'languages',
  family: 'projects',
  title: 'Languages',
  singular: 'language',
  scope: 'project',
  description: 'The languages of the default branch, by share of the code (GitLab’s repository languages).',
  readRole: 'signed-in',
  titleField: 'language',
  list: {
    path: '/projects/:project/languages',
    key: 'language',
    unpaged: true,
    rowsOf: languageRows,
    columns: [
      { field: 'language', label: 'Language', width: 'minmax(0, 2fr)' },
      { field: 'share', label: 'Share', width: 'minmax(0, 1fr)', value: (l) => `${Number(l.share).toFixed(2)} %` },
    ],
  },
}

export const projectAuditEvents: ResourceDescription = {
  key: 'audit-events',
  family: 'projects',
  title: 'Audit events',
  singular: 'audit event',
  scope: 'project',
  description: 'Changes made in the project (Developers see their own).',
  readRole: 'developer',
  tier: 'Premium',
  titleField: 'id',
  list: {
    path: '/projects/:project/audit_events',
    query: { per_page: 20 },
    columns: AUDIT_COLUMNS,
    filters: AUDIT_FILTERS,
  },
  detail: { path: '/projects/:project/audit_events/{id}', fields: AUDIT_DETAIL },
}

export const PROJECT_RESOURCES: readonly ResourceDescription[] = [
  projectPipelines,
  projectPipelineSchedules,
  projectJobs,
  projectRunners,
  projectEnvironments,
  projectProtectedEnvironments,
  projectDeployments,
  projectClusters,
  projectPagesDomains,
  projectErrorTracking,
  projectClientKeys,
  projectVulnerabilities,
  projectDependencies,
  projectMemberList,
  projectAccessRequests,
  projectProtectedBranches,
  projectProtectedTags,
  projectReleases,
  projectForks,
  projectWebhooks,
  projectBadges,
  projectLanguages,
  projectAuditEvents,
]
