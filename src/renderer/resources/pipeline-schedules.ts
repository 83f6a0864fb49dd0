/**
 * Pipeline schedules of a project (GitLab's Pipeline schedules API): a cron expression in a
 * timezone that runs a pipeline on a branch or tag as the schedule's owner. Reporters read them,
 * Developers add them and run them now, only the owner edits one, Maintainers take ownership.
 */
import type { FieldView, FormField, ResourceDescription } from './types'

type Item = Readonly<Record<string, unknown>>

const BASE = '/projects/:project/pipeline_schedules'

/** `main` of `refs/heads/main`, `v1.0` of `refs/tags/v1.0`. */
const shortRef = (s: Item): string => String(s.ref ?? '').replace(/^refs\/(heads|tags)\//, '')

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday']

const pad = (n: string): string => n.padStart(2, '0')

/**
 * A reading of the common cron shapes ("every 15 minutes", "daily at 02:00", "Monday to Friday at
 * 08:30"); the expression itself for anything else.
 */
export function describeCron(cron: string): string {
  const fields = cron.trim().split(/\s+/)
  if (fields.length !== 5) return cron
  const [minute, hour, dayOfMonth, month, dayOfWeek] = fields
  const every = /^\*\/(\d+)$/.exec(minute)
  if (every && hour === '*' && dayOfMonth === '*' && month === '*' && dayOfWeek === '*')
    return `Every ${every[1]} minutes`
  if (!/^\d+$/.test(minute)) return cron
  if (hour === '*' && dayOfMonth === '*' && month === '*' && dayOfWeek === '*') return `Hourly at :${pad(minute)}`
  if (!/^\d+$/.test(hour) || month !== '*') return cron
  const at = `at ${pad(hour)}:${pad(minute)}`
  if (dayOfMonth === '*' && dayOfWeek === '*') return `Daily ${at}`
  if (dayOfMonth === '*' && /^[0-7]$/.test(dayOfWeek)) return `Every ${WEEKDAYS[Number(dayOfWeek) % 7]} ${at}`
  if (dayOfMonth === '*' && dayOfWeek === '1-5') return `Monday to Friday ${at}`
  if (/^\d+$/.test(dayOfMonth) && dayOfWeek === '*') return `Monthly on day ${dayOfMonth} ${at}`
  return cron
}

const cronWithHint = (s: Item): string => {
  const cron = String(s.cron ?? '')
  const hint = describeCron(cron)
  return hint === cron ? cron : `${cron} (${hint}, ${String(s.cron_timezone ?? 'UTC')})`
}

const lastStatus = (s: Item): string => {
  const last = s.last_pipeline as Item | null | undefined
  return last ? String(last.status) : ''
}

const variableKeys = (s: Item): string[] =>
  Array.isArray(s.variables) ? s.variables.map((v) => String((v as Item).key)) : []

const FIELDS: readonly FieldView[] = [
  { field: 'description', label: 'Description' },
  { field: 'ref', label: 'Branch or tag', format: 'code', value: shortRef },
  { field: 'cron', label: 'Interval', format: 'code', value: cronWithHint },
  { field: 'cron_timezone', label: 'Timezone' },
  { field: 'active', label: 'Active', format: 'boolean' },
  { field: 'next_run_at', label: 'Next run', format: 'datetime' },
  { field: 'owner', label: 'Owner', format: 'user' },
  { field: 'last_pipeline', label: 'Last pipeline', format: 'state', value: lastStatus },
  { field: 'variables', label: 'Variables', format: 'list', value: variableKeys },
  { field: 'created_at', label: 'Created', format: 'datetime' },
]

const SETTINGS: readonly FormField[] = [
  { name: 'description', label: 'Description', type: 'text', required: true, maxLength: 255 },
  { name: 'ref', label: 'Branch or tag', type: 'text', required: true, placeholder: 'main' },
  {
    name: 'cron',
    label: 'Interval (cron)',
    type: 'text',
    required: true,
    placeholder: '0 2 * * *',
    help: 'Minute, hour, day of month, month, day of week: "0 2 * * *" is daily at 02:00, "30 8 * * 1-5" weekdays at 08:30.',
  },
  {
    name: 'cron_timezone',
    label: 'Timezone',
    type: 'text',
    default: 'UTC',
    placeholder: 'Europe/Berlin',
    help: 'An IANA timezone: runs follow its daylight-saving changes.',
  },
  { name: 'active', label: 'Active', type: 'boolean', default: true },
]

export const projectPipelineSchedules: ResourceDescription = {
  key: 'pipeline-schedules',
  family: 'ci-cd',
  title: 'Schedules',
  singular: 'schedule',
  scope: 'project',
  description: 'Pipelines run on a branch or tag at regular intervals, as the schedule’s owner.',
  readRole: 'reporter',
  titleField: 'description',
  list: {
    path: BASE,
    query: { per_page: 20 },
    columns: [
      { field: 'description', label: 'Schedule', primary: true, width: 'minmax(150px, 2fr)' },
      { field: 'ref', label: 'Ref', format: 'code', value: shortRef, width: 'minmax(70px, 1fr)' },
      { field: 'cron', label: 'Interval', format: 'code', value: (s) => describeCron(String(s.cron)), width: '200px' },
      { field: 'next_run_at', label: 'Next run', format: 'relative', width: '110px' },
      { field: 'owner', label: 'Owner', format: 'user', width: '150px' },
      {
        field: 'active',
        label: 'State',
        format: 'state',
        value: (s) => (s.active === true ? 'active' : 'inactive'),
        width: '90px',
      },
    ],
    filters: [
      {
        kind: 'select',
        param: 'scope',
        label: 'State',
        options: [
          { value: 'active', label: 'Active' },
          { value: 'inactive', label: 'Inactive' },
        ],
      },
    ],
  },
  detail: { path: `${BASE}/{id}`, fields: FIELDS },
  create: {
    title: 'New schedule',
    method: 'POST',
    path: BASE,
    role: 'developer',
    outcome: 'detail',
    submitLabel: 'Create schedule',
    fields: SETTINGS,
  },
  edit: { title: 'Edit schedule', method: 'PUT', path: `${BASE}/{id}`, role: 'developer', fields: SETTINGS },
  actions: [
    {
      key: 'play',
      label: 'Run now',
      method: 'POST',
      path: `${BASE}/{id}/play`,
      on: 'item',
      role: 'developer',
      done: 'Pipeline started.',
    },
    {
      key: 'take-ownership',
      label: 'Take ownership',
      method: 'POST',
      path: `${BASE}/{id}/take_ownership`,
      on: 'item',
      role: 'maintainer',
      confirm: (s) => `Take ownership of “${String(s.description)}”? Its pipelines will run as you.`,
      done: 'You own this schedule now.',
    },
    {
      key: 'add-variable',
      label: 'Add variable',
      method: 'POST',
      path: `${BASE}/{id}/variables`,
      on: 'item',
      role: 'developer',
      form: {
        title: 'Add variable',
        submitLabel: 'Add variable',
        fields: [
          {
            name: 'key',
            label: 'Key',
            type: 'text',
            required: true,
            pattern: { source: '[A-Za-z0-9_]+', message: 'Letters, digits and _ only.' },
          },
          { name: 'value', label: 'Value', type: 'text', required: true },
          {
            name: 'variable_type',
            label: 'Type',
            type: 'select',
            default: 'env_var',
            options: [
              { value: 'env_var', label: 'Variable' },
              { value: 'file', label: 'File' },
            ],
          },
        ],
      },
      done: 'Variable added.',
    },
    {
      key: 'delete',
      label: 'Delete',
      method: 'DELETE',
      path: `${BASE}/{id}`,
      on: 'item',
      role: 'developer',
      danger: true,
      confirm: (s) => `Delete the schedule “${String(s.description)}”? Its pipelines stay.`,
      outcome: 'list',
      done: 'Schedule deleted.',
    },
  ],
}
