import { describe, expect, it } from 'vitest'
import { adminUsers } from '../../../src/renderer/resources/admin'
import { apiFieldErrors, formRequest, initialValues, validateForm } from '../../../src/renderer/resources/forms'
import { hasRole, stateTone } from '../../../src/renderer/resources/format'
import { RESOURCES } from '../../../src/renderer/resources/index'
import { outcomeOf } from '../../../src/renderer/resources/outcome'
import { fillPath, filtersFromRoute, filtersToRoute, listQuery, MissingContextError } from '../../../src/renderer/resources/paths'
import { projectClusters, projectProtectedEnvironments } from '../../../src/renderer/resources/project'
import { RUNNER_FILTERS } from '../../../src/renderer/resources/shared'
import { checkApiSendPath } from '../../../src/shared/ipc/api'

const context = { accountId: 'a', userId: 1, projectId: 12, groupId: null }

describe('resource paths', () => {
  it('fills context and item placeholders, URL-encoding item values', () => {
    expect(fillPath('/projects/:project/protected_branches/{name}', context, { name: 'release/*' })).toBe('/projects/12/protected_branches/release%2F*')
    expect(fillPath('/users/:user/personal_access_tokens', context)).toBe('/users/1/personal_access_tokens')
  })

  it('says which context is missing', () => {
    expect(() => fillPath('/groups/:group/members', context)).toThrow(MissingContextError)
    expect(() => fillPath('/groups/:group/members', context)).toThrow('Choose a group first.')
    expect(() => fillPath('/runners/{id}', context, {})).toThrow('The item has no id.')
  })

  it('every described path is one api:send accepts once filled', () => {
    for (const r of RESOURCES) {
      const templates = [r.list?.path, r.detail?.path, r.singleton?.path, r.create?.path, r.edit?.path, ...(r.actions ?? []).map((a) => a.path)].filter((p): p is string => p !== undefined)
      for (const t of templates) expect(checkApiSendPath(fillPath(t, { accountId: 'a', userId: 1, projectId: 3, groupId: 4 }, new Proxy({}, { get: () => 'x y/z' }))), `${r.family}/${r.key}: ${t}`).toBeNull()
    }
  })

  it('turns filter values into the API query: flags only when set, tags as arrays, empty values left out', () => {
    expect(listQuery(RUNNER_FILTERS, { type: 'group_type', status: null, tag_list: ['docker', 'linux'] }, { per_page: 20 })).toEqual({ per_page: 20, type: 'group_type', tag_list: ['docker', 'linux'] })
    expect(listQuery(adminUsers.list?.filters ?? [], { blocked: true, admins: false, search: '', created_after: '2024-01-01T00:00:00.000Z' })).toEqual({ blocked: true, created_after: '2024-01-01T00:00:00.000Z' })
  })

  it('round-trips filters through the route query', () => {
    const values = { type: 'project_type', tag_list: ['a', 'b'] }
    expect(filtersFromRoute(RUNNER_FILTERS, filtersToRoute(RUNNER_FILTERS, values))).toEqual(values)
    expect(filtersFromRoute(RUNNER_FILTERS, { type: 'not-a-type' })).toEqual({})
  })
})

describe('resource forms', () => {
  const create = adminUsers.create!

  it('checks required fields, patterns and GitLab’s password rule', () => {
    const problems = validateForm(create, initialValues(create))
    expect(Object.keys(problems).sort()).toEqual(['email', 'name', 'password', 'username'])
    const filled = { ...initialValues(create), name: 'Ada', username: '-ada', email: 'ada@example.com', reset_password: true }
    expect(validateForm(create, filled)).toEqual({ username: 'Username may hold letters, digits, _, . and - (not starting with -).' })
    expect(validateForm(create, { ...filled, username: 'ada' })).toEqual({})
    expect(validateForm(create, { ...filled, username: 'ada', reset_password: false, password: 'short' })).toEqual({ password: 'Password needs at least 8 characters.' })
  })

  it('nests dotted names and sends only what changed on an edit', () => {
    const edit = projectClusters.edit!
    const item = { id: 3, name: 'prod', domain: 'example.com', enabled: true, managed: true, environment_scope: '*', platform_cluster: { api_url: 'https://k8s.example.com', namespace: 'app', ca_cert: null } }
    const values = { ...initialValues(edit, item), 'platform_cluster_attributes.namespace': 'app-2', enabled: false }
    expect(formRequest(edit, values, item)).toEqual({ body: { platform_cluster_attributes: { namespace: 'app-2' }, enabled: false }, query: {} })
  })

  it('uses a description’s own body (protected environment access levels)', () => {
    const create = projectProtectedEnvironments.create!
    const values = { ...initialValues(create), name: 'production', access_level: 40, user_ids: ['7'] }
    expect(formRequest(create, values).body).toEqual({ name: 'production', deploy_access_levels: [{ access_level: 40 }, { user_id: 7 }] })
  })

  it('puts GitLab’s validation messages next to their fields', () => {
    expect(apiFieldErrors(create, { status: 400, body: { message: { email: ['has already been taken'], projects_limit: ['must be positive'], base: ['is invalid'] } } })).toEqual({
      email: 'Email has already been taken',
      projects_limit: 'Projects limit must be positive',
      '': 'base is invalid',
    })
  })
})

describe('resource formats and outcomes', () => {
  it('administrators have every role; others need the level', () => {
    expect(hasRole('maintainer', { admin: true, level: null })).toBe(true)
    expect(hasRole('maintainer', { admin: false, level: 30 })).toBe(false)
    expect(hasRole('developer', { admin: false, level: 30 })).toBe(true)
    expect(hasRole('admin', { admin: false, level: 50 })).toBe(false)
  })

  it('colours states by meaning, descriptions first', () => {
    expect(stateTone('online')).toBe('success')
    expect(stateTone('blocked')).toBe('error')
    expect(stateTone('instance_type', { instance_type: 'info' })).toBe('info')
  })

  it('reads a secret from the answer once, and says so when there is none', () => {
    expect(outcomeOf('secret', 'Token rotated.', { status: 200, body: { token: 'glpat-xyz' } }, 'access token')).toEqual({ kind: 'secret', text: 'Token rotated.', secret: 'glpat-xyz', what: 'access token' })
    expect(outcomeOf('secret', 'Token rotated.', { status: 200, body: {} }, 'access token')).toEqual({ kind: 'message', text: 'Token rotated. The server sent no access token to show.' })
  })
})
