import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyRequest } from 'fastify'
import { Type } from 'typebox'
import {
  GroupHook,
  HookEvent,
  HookResendResult,
  HookTestResult,
  ProjectHook,
  SystemHook,
  SystemHookTestResult,
} from '../../../shared/api/hook'
import { callerOf } from '../../platform/caller'
import { onPush } from '../../platform/git/push-listeners'
import { listOf } from '../../platform/http/loose-params'
import { paginateArray } from '../../platform/http/pagination'
import { currentUser, loadGroup, loadProject } from '../../platform/http/resolve'
import { onEventRecorded } from '../events'
import { onJobStatus, onPipelineStatus } from '../pipelines'
import { onReleaseChange } from '../releases'
import { stopDeliveries } from './delivery'
import {
  itemEventListener,
  jobHookListener,
  pipelineHookListener,
  registerItemSamples,
  releaseHookListener,
} from './item-events'
import { hookEventEntity } from './entity'
import type { HookEventFlag, HookLogStatusFilter } from './queries'
import {
  createHook,
  deleteHook,
  deliverPushHooks,
  hookEvents,
  hooksOfOwner,
  loadHook,
  loadHookEvent,
  presentHook,
  presentSystemHook,
  resendHookEvent,
  setHookKeyValue,
  SYSTEM_HOOK_FLAGS,
  testHook,
  testSystemHook,
  updateHook,
  type HookOwner,
  type HookParams,
  type KeyValue,
} from './service'

const Flag = Type.Optional(Type.Boolean())
const KeyValues = Type.Optional(Type.Array(Type.Object({ key: Type.String(), value: Type.String() })))
const Common = {
  name: Type.Optional(Type.String()),
  description: Type.Optional(Type.String()),
  token: Type.Optional(Type.String()),
  push_events: Flag,
  tag_push_events: Flag,
  merge_requests_events: Flag,
  enable_ssl_verification: Flag,
  push_events_branch_filter: Type.Optional(Type.String()),
  branch_filter_strategy: Type.Optional(Type.Enum(['wildcard', 'regex', 'all_branches'])),
  url_variables: KeyValues,
  custom_headers: KeyValues,
}
const ProjectFlags = {
  issues_events: Flag,
  confidential_issues_events: Flag,
  note_events: Flag,
  confidential_note_events: Flag,
  pipeline_events: Flag,
  job_events: Flag,
  releases_events: Flag,
  wiki_page_events: Flag,
}
const CreateBody = Type.Object({ url: Type.String(), ...Common, ...ProjectFlags })
const UpdateBody = Type.Object({ url: Type.Optional(Type.String()), ...Common, ...ProjectFlags })
const SystemCreateBody = Type.Object({ url: Type.String(), ...Common, repository_update_events: Flag })
const SystemUpdateBody = Type.Object({ url: Type.Optional(Type.String()), ...Common, repository_update_events: Flag })

const OwnerParams = Type.Object({ id: Type.String() })
const HookParamsSchema = Type.Object({ id: Type.String(), hook_id: Type.Integer() })
const SystemHookParams = Type.Object({ hook_id: Type.Integer() })
const TRIGGERS = [
  'push_events',
  'tag_push_events',
  'issues_events',
  'confidential_issues_events',
  'note_events',
  'confidential_note_events',
  'merge_requests_events',
  'job_events',
  'pipeline_events',
  'wiki_page_events',
  'releases_events',
] as const satisfies readonly HookEventFlag[]
const TestParams = Type.Object({ id: Type.String(), hook_id: Type.Integer(), trigger: Type.Enum(TRIGGERS) })
const EventParams = Type.Object({ id: Type.String(), hook_id: Type.Integer(), hook_log_id: Type.Integer() })
const KeyParams = Type.Object({ id: Type.String(), hook_id: Type.Integer(), key: Type.String() })
const SystemKeyParams = Type.Object({ hook_id: Type.Integer(), key: Type.String() })
const ValueBody = Type.Object({ value: Type.String() })
const PageQuery = { page: Type.Optional(Type.Integer()), per_page: Type.Optional(Type.Integer()) }
const ListQuery = Type.Object(PageQuery)
const EventsQuery = Type.Object({ ...PageQuery, status: Type.Optional(Type.Unknown()) })

type HookBody = Partial<Record<HookEventFlag, boolean>> & {
  readonly url?: string
  readonly name?: string
  readonly description?: string
  readonly token?: string
  readonly enable_ssl_verification?: boolean
  readonly push_events_branch_filter?: string
  readonly branch_filter_strategy?: 'wildcard' | 'regex' | 'all_branches'
  readonly url_variables?: readonly KeyValue[]
  readonly custom_headers?: readonly KeyValue[]
}

/** A hook write's body as the service's parameters; `flags` names the events this kind of hook has. */
function hookParams(body: HookBody, flags: readonly HookEventFlag[]): HookParams {
  return {
    url: body.url,
    name: body.name,
    description: body.description,
    token: body.token,
    flags: Object.fromEntries(flags.filter((f) => body[f] !== undefined).map((f) => [f, body[f]])),
    pushEventsBranchFilter: body.push_events_branch_filter,
    branchFilterStrategy: body.branch_filter_strategy,
    enableSslVerification: body.enable_ssl_verification,
    urlVariables: body.url_variables,
    customHeaders: body.custom_headers,
  }
}

const PROJECT_FLAGS: readonly HookEventFlag[] = [...TRIGGERS]

/** GitLab's `status` filter of hook events: status codes, or `successful`, `client_failure`, `server_failure`. */
function statusFilter(raw: unknown): HookLogStatusFilter | undefined {
  if (raw === undefined) return undefined
  const values = listOf('status', raw)
  const named = values.find((v) => v === 'successful' || v === 'client_failure' || v === 'server_failure')
  if (named) return { kind: named as 'successful' | 'client_failure' | 'server_failure' }
  return { kind: 'codes', codes: values.filter((v) => /^\d{3}$/.test(v)) }
}

/** The project or group of a hooks endpoint (404 when the caller cannot see it); every call signs in first. */
function ownerOf(request: FastifyRequest, kind: 'project' | 'group', id: string): HookOwner {
  currentUser(request)
  return kind === 'project' ? { kind, project: loadProject(request, id) } : { kind, group: loadGroup(request, id) }
}

/** GitLab's Project webhooks, Group webhooks and System hooks APIs. */
const hooks: FastifyPluginAsyncTypebox = async (app) => {
  onPush(app.burrow, deliverPushHooks)
  onEventRecorded(app.burrow.db, itemEventListener(app.burrow))
  onPipelineStatus(app.burrow, pipelineHookListener)
  onJobStatus(app.burrow, jobHookListener)
  onReleaseChange(app.burrow, releaseHookListener)
  registerItemSamples()
  app.addHook('preClose', async () => stopDeliveries(app.burrow))

  for (const kind of ['project', 'group'] as const) {
    const base = `/${kind}s/:id/hooks`
    const Entity = kind === 'project' ? ProjectHook : GroupHook

    app.get(
      base,
      { schema: { params: OwnerParams, querystring: ListQuery, response: { 200: Type.Array(Entity) } } },
      async (request, reply) => {
        const caller = callerOf(request)
        const rows = hooksOfOwner(caller, ownerOf(request, kind, request.params.id))
        return paginateArray(request, reply, caller.baseUrl, rows).map((row) => presentHook(caller, row))
      },
    )

    app.get(
      `${base}/:hook_id`,
      { schema: { params: HookParamsSchema, response: { 200: Entity } } },
      async (request) => {
        const caller = callerOf(request)
        return presentHook(caller, loadHook(caller, ownerOf(request, kind, request.params.id), request.params.hook_id))
      },
    )

    app.post(
      base,
      { schema: { params: OwnerParams, body: CreateBody, response: { 201: Entity } } },
      async (request, reply) => {
        const caller = callerOf(request)
        const owner = ownerOf(request, kind, request.params.id)
        const hook = await createHook(caller, owner, hookParams(request.body, PROJECT_FLAGS))
        return reply.code(201).send(presentHook(caller, hook))
      },
    )

    app.put(
      `${base}/:hook_id`,
      { schema: { params: HookParamsSchema, body: UpdateBody, response: { 200: Entity } } },
      async (request) => {
        const caller = callerOf(request)
        const owner = ownerOf(request, kind, request.params.id)
        const hook = loadHook(caller, owner, request.params.hook_id)
        return presentHook(caller, await updateHook(caller, owner, hook, hookParams(request.body, PROJECT_FLAGS)))
      },
    )

    app.delete(`${base}/:hook_id`, { schema: { params: HookParamsSchema } }, async (request, reply) => {
      const caller = callerOf(request)
      const owner = ownerOf(request, kind, request.params.id)
      deleteHook(caller, owner, loadHook(caller, owner, request.params.hook_id))
      return reply.code(204).send()
    })

    app.post(
      `${base}/:hook_id/test/:trigger`,
      { schema: { params: TestParams, response: { 201: HookTestResult } } },
      async (request, reply) => {
        const caller = callerOf(request)
        const owner = ownerOf(request, kind, request.params.id)
        await testHook(caller, owner, loadHook(caller, owner, request.params.hook_id), request.params.trigger)
        return reply.code(201).send({ message: '201 Created' })
      },
    )

    app.get(
      `${base}/:hook_id/events`,
      { schema: { params: HookParamsSchema, querystring: EventsQuery, response: { 200: Type.Array(HookEvent) } } },
      async (request, reply) => {
        const caller = callerOf(request)
        const owner = ownerOf(request, kind, request.params.id)
        const hook = loadHook(caller, owner, request.params.hook_id)
        const rows = hookEvents(caller, owner, hook, statusFilter(request.query.status))
        return paginateArray(request, reply, caller.baseUrl, rows).map(hookEventEntity)
      },
    )

    app.post(
      `${base}/:hook_id/events/:hook_log_id/resend`,
      { schema: { params: EventParams, response: { 201: HookResendResult } } },
      async (request, reply) => {
        const caller = callerOf(request)
        const owner = ownerOf(request, kind, request.params.id)
        const hook = loadHook(caller, owner, request.params.hook_id)
        const log = loadHookEvent(caller, owner, hook, request.params.hook_log_id)
        const resent = await resendHookEvent(caller, owner, hook, log)
        return reply.code(201).send({ response_status: Number(resent.response_status) })
      },
    )

    for (const set of ['url_variables', 'custom_headers'] as const) {
      app.put(
        `${base}/:hook_id/${set}/:key`,
        { schema: { params: KeyParams, body: ValueBody } },
        async (request, reply) => {
          const caller = callerOf(request)
          const owner = ownerOf(request, kind, request.params.id)
          const hook = loadHook(caller, owner, request.params.hook_id)
          setHookKeyValue(caller, owner, hook, set, request.params.key, request.body.value)
          return reply.code(204).send()
        },
      )
      app.delete(`${base}/:hook_id/${set}/:key`, { schema: { params: KeyParams } }, async (request, reply) => {
        const caller = callerOf(request)
        const owner = ownerOf(request, kind, request.params.id)
        const hook = loadHook(caller, owner, request.params.hook_id)
        setHookKeyValue(caller, owner, hook, set, request.params.key, null)
        return reply.code(204).send()
      })
    }
  }

  const system: HookOwner = { kind: 'system' }
  const systemCaller = (request: FastifyRequest) => {
    currentUser(request)
    return callerOf(request)
  }

  app.get(
    '/hooks',
    { schema: { querystring: ListQuery, response: { 200: Type.Array(SystemHook) } } },
    async (request, reply) => {
      const caller = systemCaller(request)
      const rows = hooksOfOwner(caller, system)
      return paginateArray(request, reply, caller.baseUrl, rows).map((row) => presentSystemHook(caller, row))
    },
  )

  app.get(
    '/hooks/:hook_id',
    { schema: { params: SystemHookParams, response: { 200: SystemHook } } },
    async (request) => {
      const caller = systemCaller(request)
      return presentSystemHook(caller, loadHook(caller, system, request.params.hook_id))
    },
  )

  app.post('/hooks', { schema: { body: SystemCreateBody, response: { 201: SystemHook } } }, async (request, reply) => {
    const caller = systemCaller(request)
    const hook = await createHook(caller, system, hookParams(request.body, SYSTEM_HOOK_FLAGS))
    return reply.code(201).send(presentSystemHook(caller, hook))
  })

  app.put(
    '/hooks/:hook_id',
    { schema: { params: SystemHookParams, body: SystemUpdateBody, response: { 200: SystemHook } } },
    async (request) => {
      const caller = systemCaller(request)
      const hook = loadHook(caller, system, request.params.hook_id)
      return presentSystemHook(
        caller,
        await updateHook(caller, system, hook, hookParams(request.body, SYSTEM_HOOK_FLAGS)),
      )
    },
  )

  app.delete('/hooks/:hook_id', { schema: { params: SystemHookParams } }, async (request, reply) => {
    const caller = systemCaller(request)
    deleteHook(caller, system, loadHook(caller, system, request.params.hook_id))
    return reply.code(204).send()
  })

  app.post(
    '/hooks/:hook_id',
    { schema: { params: SystemHookParams, response: { 201: SystemHookTestResult } } },
    async (request, reply) => {
      const caller = systemCaller(request)
      return reply.code(201).send(await testSystemHook(caller, loadHook(caller, system, request.params.hook_id)))
    },
  )

  for (const set of ['url_variables', 'custom_headers'] as const) {
    app.put(
      `/hooks/:hook_id/${set}/:key`,
      { schema: { params: SystemKeyParams, body: ValueBody } },
      async (request, reply) => {
        const caller = systemCaller(request)
        const hook = loadHook(caller, system, request.params.hook_id)
        setHookKeyValue(caller, system, hook, set, request.params.key, request.body.value)
        return reply.code(204).send()
      },
    )
    app.delete(`/hooks/:hook_id/${set}/:key`, { schema: { params: SystemKeyParams } }, async (request, reply) => {
      const caller = systemCaller(request)
      const hook = loadHook(caller, system, request.params.hook_id)
      setHookKeyValue(caller, system, hook, set, request.params.key, null)
      return reply.code(204).send()
    })
  }
}

export default hooks
