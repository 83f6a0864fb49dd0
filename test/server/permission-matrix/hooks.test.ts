import { afterAll, beforeAll } from 'vitest'
import { insertHookLog } from '../../../src/server/modules/hooks/queries'
import { startHookReceiver, type HookReceiver } from '../../helpers/hook-receiver'
import { authenticatedRows, instanceRows, permissionMatrix, type MatrixRow, type Vars } from './matrix'
import { buildWorld, type Container, type Json, type World } from './world'

// Webhooks: project hooks for Maintainers, group hooks for Owners, system hooks for administrators;
// every call signs in first. The hooks subscribe to nothing the matrix does, so nothing is delivered.

let world: World
let receiver: HookReceiver
let seq = 0

beforeAll(async () => {
  world = await buildWorld()
  receiver = await startHookReceiver()
  await world.admin('PUT', '/application/settings', { allow_local_requests_from_web_hooks_and_services: true })
})
afterAll(async () => {
  await world.close()
  await receiver.close()
})

/** A hook body that no event of the matrix triggers (the name need not resolve: deliveries check it). */
const quietHook = (_v: Vars, unique: string): Json => ({
  url: `https://hooks.example.com/${unique}`,
  push_events: false,
})

/** A new hook of the container's project or group. */
async function hookFixture(w: World, c: Container, owner: 'projects' | 'groups'): Promise<Vars> {
  seq += 1
  const id = owner === 'projects' ? c.project.id : c.group.id
  const hook = await w.admin<Json>('POST', `/${owner}/${id}/hooks`, quietHook({}, `fixture-${seq}`))
  return { hook: Number(hook.id) }
}

/**
 * A hook to the local receiver with one logged delivery, to resend: the log is written straight to
 * the database, since nothing of the matrix triggers a delivery.
 */
async function deliveredFixture(w: World, c: Container, owner: 'projects' | 'groups'): Promise<Vars> {
  seq += 1
  const id = owner === 'projects' ? c.project.id : c.group.id
  const hook = await w.admin<Json>('POST', `/${owner}/${id}/hooks`, {
    url: `${receiver.url}/${seq}`,
    push_events: false,
  })
  const log = insertHookLog(w.server.app.burrow.db, {
    web_hook_id: Number(hook.id),
    trigger: 'push_hooks',
    url: `${receiver.url}/${seq}`,
    request_headers: '{}',
    request_data: '{"object_kind":"push"}',
    response_headers: '{}',
    response_body: '',
    response_status: '200',
    execution_duration: 0.01,
    internal_error_message: null,
    created_at: new Date().toISOString(),
  })
  return { hook: Number(hook.id), event: Number(log?.id) }
}

/** The rows of one owner's hooks API, for the role that manages them. */
function hookRows(owner: 'projects' | 'groups', min: 'maintainer' | 'owner'): MatrixRow[] {
  const base = `/${owner}/{${owner === 'projects' ? 'project' : 'group'}}/hooks`
  const fixture = (w: World, c: Container) => hookFixture(w, c, owner)
  return authenticatedRows([
    { method: 'GET', path: base, min },
    { method: 'GET', path: `${base}/{hook}`, min, fixture },
    { method: 'GET', path: `${base}/{hook}/events`, min, fixture },
    {
      method: 'POST',
      path: `${base}/{hook}/events/{event}/resend`,
      min,
      fixture: (w, c) => deliveredFixture(w, c, owner),
      readBack: `${base}/{hook}/events`,
      why: 'a refused resend sends and logs nothing: the events read back unchanged',
    },
    { method: 'POST', path: base, min, body: quietHook },
    { method: 'PUT', path: `${base}/{hook}`, min, fixture, body: { name: 'Renamed' } },
    {
      method: 'PUT',
      path: `${base}/{hook}/custom_headers/X-Env`,
      min,
      ok: 204,
      fixture,
      body: { value: 'prod' },
      readBack: `${base}/{hook}`,
    },
    { method: 'DELETE', path: `${base}/{hook}`, min, fixture },
  ])
}

permissionMatrix('project hooks', () => world, hookRows('projects', 'maintainer'))
permissionMatrix('group hooks', () => world, hookRows('groups', 'owner'))

/** A new system hook. */
async function systemHookFixture(w: World): Promise<Vars> {
  seq += 1
  const hook = await w.admin<Json>('POST', '/hooks', {
    ...quietHook({}, `system-${seq}`),
    repository_update_events: false,
  })
  return { hook: Number(hook.id) }
}

const SYSTEM_HOOK_ROWS: readonly MatrixRow[] = instanceRows(
  authenticatedRows([
    { method: 'GET', path: '/hooks', min: 'admin' },
    { method: 'GET', path: '/hooks/{hook}', min: 'admin', fixture: systemHookFixture },
    {
      method: 'POST',
      path: '/hooks',
      min: 'admin',
      body: (v, u) => ({ ...quietHook(v, u), repository_update_events: false }),
    },
    { method: 'PUT', path: '/hooks/{hook}', min: 'admin', fixture: systemHookFixture, body: { name: 'Renamed' } },
    {
      method: 'PUT',
      path: '/hooks/{hook}/custom_headers/X-Env',
      min: 'admin',
      ok: 204,
      fixture: systemHookFixture,
      body: { value: 'prod' },
      readBack: '/hooks/{hook}',
    },
    { method: 'DELETE', path: '/hooks/{hook}', min: 'admin', fixture: systemHookFixture },
  ]),
)

permissionMatrix('system hooks', () => world, SYSTEM_HOOK_ROWS)
