/**
 * A group's CI/CD variables and access tokens (GitLab's Group-level variables and Group access
 * tokens APIs), for its Owners. A masked or hidden variable's value is never put on screen: the
 * panel has no detail (its raw JSON would show the stored value), and Edit leaves the value empty
 * (typed anew, or kept). The same key may be set once per environment scope, so a variable's
 * edit and delete name its scope (GitLab's `filter[environment_scope]`).
 */
import { ACCESS_LEVELS } from './format'
import { inOneYear, TOKEN_SCOPES } from './personal'
import { options } from './shared'
import type { FormField, ResourceDescription } from './types'

type Item = Readonly<Record<string, unknown>>

/** A variable's value as the list shows it: masked and hidden ones as dots. */
const shownValue = (variable: Item): string =>
  variable.masked === true || variable.hidden === true ? '••••••' : String(variable.value ?? '')

/** The settings of a variable besides its key and value, as GitLab's form has them. */
const VARIABLE_SETTINGS: readonly FormField[] = [
  { name: 'variable_type', label: 'Type', type: 'select', options: options('env_var', 'file'), default: 'env_var' },
  { name: 'environment_scope', label: 'Environments', type: 'text', default: '*' },
  { name: 'description', label: 'Description', type: 'text' },
  { name: 'protected', label: 'Protected branches and tags only', type: 'boolean' },
  { name: 'masked', label: 'Masked', type: 'boolean', help: 'Hidden in job logs; at least 8 characters, no spaces.' },
  { name: 'raw', label: 'Expand $ references off (raw)', type: 'boolean' },
]

/** Which of the key's variables is meant: its environment scope (the key alone is ambiguous across scopes). */
const scopeFilter = (v: Item) => ({ environment_scope: String(v.environment_scope ?? '*') })

export const groupVariables: ResourceDescription = {
  key: 'variables',
  family: 'groups',
  title: 'CI/CD variables',
  singular: 'variable',
  scope: 'group',
  description: 'Variables every pipeline of the group’s projects gets. Masked values are never shown.',
  readRole: 'owner',
  titleField: 'key',
  list: {
    path: '/groups/:group/variables',
    key: 'key',
    query: { per_page: 20 },
    columns: [
      { field: 'key', label: 'Key', format: 'code', width: 'minmax(0, 1fr)' },
      { field: 'value', label: 'Value', format: 'code', width: 'minmax(0, 1fr)', value: shownValue },
      { field: 'variable_type', label: 'Type', format: 'state', width: '100px' },
      { field: 'environment_scope', label: 'Environments', format: 'code', width: '130px' },
      { field: 'protected', label: 'Protected', format: 'boolean', width: '100px' },
      { field: 'masked', label: 'Masked', format: 'boolean', width: '90px' },
    ],
  },
  create: {
    title: 'New variable',
    method: 'POST',
    path: '/groups/:group/variables',
    role: 'owner',
    outcome: 'list',
    submitLabel: 'Add variable',
    fields: [
      { name: 'key', label: 'Key', type: 'text', required: true, placeholder: 'DEPLOY_TOKEN', maxLength: 255 },
      { name: 'value', label: 'Value', type: 'password', required: true },
      ...VARIABLE_SETTINGS,
    ],
  },
  actions: [
    {
      key: 'edit',
      label: 'Edit',
      method: 'PUT',
      path: '/groups/:group/variables/{key}',
      on: 'item',
      role: 'owner',
      editsItem: true,
      bodyOf: (v) => ({ filter: scopeFilter(v) }),
      // GitLab's API keeps a variable's key: a new key is a new variable.
      confirm: (v) => `${String(v.key)}, environments ${String(v.environment_scope ?? '*')}.`,
      form: {
        title: 'Edit variable',
        submitLabel: 'Save variable',
        fields: [
          {
            name: 'value',
            label: 'Value',
            type: 'password',
            writeOnly: true,
            placeholder: 'Unchanged',
            help: 'Left empty, the variable keeps its value.',
          },
          ...VARIABLE_SETTINGS,
        ],
      },
      done: 'Variable saved.',
    },
    {
      key: 'delete',
      label: 'Delete',
      method: 'DELETE',
      path: '/groups/:group/variables/{key}',
      on: 'item',
      role: 'owner',
      danger: true,
      queryOf: (v) => ({ 'filter[environment_scope]': scopeFilter(v).environment_scope }),
      confirm: (v) =>
        `Delete the variable ${String(v.key)} (environments ${String(v.environment_scope ?? '*')})? Pipelines started after this no longer get it.`,
      outcome: 'list',
      done: 'Variable deleted.',
    },
  ],
}

/** The scopes GitLab grants a group access token (a bot user's: no sudo, admin mode or user reads). */
const GROUP_TOKEN_SCOPES = TOKEN_SCOPES.filter((o) => !['sudo', 'admin_mode', 'read_user'].includes(String(o.value)))
/** The roles a group access token's bot may have. */
const TOKEN_ROLES = ACCESS_LEVELS.filter((o) => Number(o.value) >= 10 && o.value !== 15)

export const groupAccessTokens: ResourceDescription = {
  key: 'access-tokens',
  family: 'groups',
  title: 'Access tokens',
  singular: 'access token',
  scope: 'group',
  description: 'Tokens of the group’s bot users. A new token is shown once and never stored by Burrow.',
  readRole: 'owner',
  titleField: 'name',
  list: {
    path: '/groups/:group/access_tokens',
    query: { per_page: 20 },
    columns: [
      { field: 'name', label: 'Token', primary: true, width: 'minmax(0, 2fr)' },
      { field: 'access_level', label: 'Role', format: 'access-level', width: '110px' },
      { field: 'scopes', label: 'Scopes', format: 'list', width: 'minmax(0, 2fr)' },
      { field: 'active', label: 'Active', format: 'boolean', width: '80px' },
      { field: 'expires_at', label: 'Expires', format: 'date', width: '120px' },
      { field: 'last_used_at', label: 'Last used', format: 'relative', width: '130px' },
    ],
  },
  detail: {
    path: '/groups/:group/access_tokens/{id}',
    fields: [
      { field: 'name', label: 'Name' },
      { field: 'description', label: 'Description' },
      { field: 'access_level', label: 'Role', format: 'access-level' },
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
    path: '/groups/:group/access_tokens',
    role: 'owner',
    outcome: 'secret',
    secretField: 'token',
    submitLabel: 'Create token',
    fields: [
      { name: 'name', label: 'Name', type: 'text', required: true, maxLength: 255 },
      { name: 'description', label: 'Description', type: 'textarea' },
      { name: 'access_level', label: 'Role', type: 'select', options: TOKEN_ROLES, default: 40 },
      {
        name: 'scopes',
        label: 'Scopes',
        type: 'tags',
        required: true,
        options: GROUP_TOKEN_SCOPES,
        default: ['read_api'],
      },
      { name: 'expires_at', label: 'Expires on', type: 'date', default: inOneYear() },
    ],
  },
  actions: [
    {
      key: 'revoke',
      label: 'Revoke',
      method: 'DELETE',
      path: '/groups/:group/access_tokens/{id}',
      on: 'item',
      role: 'owner',
      danger: true,
      visible: (t) => t.active === true,
      confirm: (t) => `Revoke ${String(t.name)}? Anything using it loses access to the group.`,
      outcome: 'list',
      done: 'Token revoked.',
    },
  ],
}
