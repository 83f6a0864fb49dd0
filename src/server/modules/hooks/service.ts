import type { GroupHook, ProjectHook, SystemHook } from '../../../shared/api/hook'
import type { Caller } from '../../platform/caller'
import type { ServerContext } from '../../platform/context'
import { findProjectWithNamespace, type ProjectWithNamespaceRow } from '../../platform/db/platform-queries'
import type { NamespaceRow, ProjectRow, UserRow } from '../../platform/db/rows'
import { gitText, ZERO_SHA } from '../../platform/git/git'
import { projectGitDir, repoExists } from '../../platform/git/project-repo'
import type { PushContext, RefUpdate } from '../../platform/git/push-listeners'
import { forbidden, notFound, unprocessable, type ApiError } from '../../platform/http/errors'
import { BlockedUrlError, checkOutboundUrl, outboundPolicy } from '../../platform/outbound/outbound'
import { deliver, enqueueDelivery, inBackground, newEventUuid, type Delivery, type HookSecrets } from './delivery'
import { groupHookEntity, projectHookEntity, systemHookEntity, type HookKeys } from './entity'
import { pushPayload, tagPushPayload } from './payloads'
import { canAdminGroupHooks, canAdminProjectHooks, canAdminSystemHooks } from './policy'
import {
  deleteHookRow,
  findHook,
  findHookLog,
  firstProjectInGroup,
  hookLogsOf,
  hooksOf,
  HOOK_EVENT_FLAGS,
  insertHook,
  projectEventHooks,
  systemEventHooks,
  updateHookRow,
  type BranchFilterStrategy,
  type HookEventFlag,
  type HookFields,
  type HookLogRow,
  type HookLogStatusFilter,
  type HookOwnerKey,
  type HookRow,
} from './queries'

/** Whose hooks an endpoint manages. */
export type HookOwner =
  | { readonly kind: 'project'; readonly project: ProjectRow }
  | { readonly kind: 'group'; readonly group: NamespaceRow }
  | { readonly kind: 'system' }

/** A key and value of a hook's URL variables or custom headers. */
export interface KeyValue {
  readonly key: string
  readonly value: string
}

/** A hook write as sent: absent fields keep their value on an update (or GitLab's default on a create). */
export interface HookParams {
  readonly url?: string
  readonly name?: string
  readonly description?: string
  readonly token?: string
  readonly flags: Partial<Record<HookEventFlag, boolean>>
  readonly pushEventsBranchFilter?: string
  readonly branchFilterStrategy?: BranchFilterStrategy
  readonly enableSslVerification?: boolean
  readonly urlVariables?: readonly KeyValue[]
  readonly customHeaders?: readonly KeyValue[]
}

/** GitLab's trigger names, with the `X-Gitlab-Event` header each sends. */
export const HOOK_TRIGGERS: Readonly<Record<HookEventFlag, { readonly trigger: string; readonly event: string }>> = {
  push_events: { trigger: 'push_hooks', event: 'Push Hook' },
  tag_push_events: { trigger: 'tag_push_hooks', event: 'Tag Push Hook' },
  issues_events: { trigger: 'issue_hooks', event: 'Issue Hook' },
  confidential_issues_events: { trigger: 'confidential_issue_hooks', event: 'Confidential Issue Hook' },
  merge_requests_events: { trigger: 'merge_request_hooks', event: 'Merge Request Hook' },
  note_events: { trigger: 'note_hooks', event: 'Note Hook' },
  confidential_note_events: { trigger: 'confidential_note_hooks', event: 'Confidential Note Hook' },
  pipeline_events: { trigger: 'pipeline_hooks', event: 'Pipeline Hook' },
  job_events: { trigger: 'job_hooks', event: 'Job Hook' },
  releases_events: { trigger: 'release_hooks', event: 'Release Hook' },
  wiki_page_events: { trigger: 'wiki_page_hooks', event: 'Wiki Page Hook' },
  repository_update_events: { trigger: 'repository_update_hooks', event: 'System Hook' },
}

/** The events a system hook may subscribe to (GitLab's SystemHook triggers). */
export const SYSTEM_HOOK_FLAGS: readonly HookEventFlag[] = [
  'push_events',
  'tag_push_events',
  'merge_requests_events',
  'repository_update_events',
]

function ownerKey(owner: HookOwner): HookOwnerKey {
  if (owner.kind === 'project') return { type: 'ProjectHook', id: owner.project.id }
  if (owner.kind === 'group') return { type: 'GroupHook', id: owner.group.id }
  return { type: 'SystemHook' }
}

/** Refuses anyone but a project's Maintainers, a group's Owners, or (system hooks) administrators. */
export function assertMayAdminHooks(caller: Caller, owner: HookOwner): void {
  const allowed =
    owner.kind === 'project'
      ? canAdminProjectHooks(caller.perms, owner.project)
      : owner.kind === 'group'
        ? canAdminGroupHooks(caller.perms, owner.group.id)
        : canAdminSystemHooks(caller.perms)
  if (!allowed) throw forbidden()
}

/** The owner's hooks. */
export function hooksOfOwner(caller: Caller, owner: HookOwner): HookRow[] {
  assertMayAdminHooks(caller, owner)
  return hooksOf(caller.db, ownerKey(owner))
}

/** One of the owner's hooks, or 404 `Hook Not Found`. */
export function loadHook(caller: Caller, owner: HookOwner, id: number): HookRow {
  assertMayAdminHooks(caller, owner)
  const hook = findHook(caller.db, ownerKey(owner), id)
  if (!hook) throw notFound('Hook')
  return hook
}

// ---- secrets ------------------------------------------------------------------------------

function openMap(ctx: ServerContext, sealed: string | null): Record<string, string> {
  return sealed === null ? {} : (JSON.parse(ctx.secrets.open(sealed)) as Record<string, string>)
}

function sealMap(ctx: ServerContext, map: Readonly<Record<string, string>>): string | null {
  return Object.keys(map).length === 0 ? null : ctx.secrets.seal(JSON.stringify(map))
}

/** A hook's token, URL variables and custom headers in the clear, for a delivery. */
export function openHookSecrets(ctx: ServerContext, hook: HookRow): HookSecrets {
  return {
    token: hook.token_sealed === null ? null : ctx.secrets.open(hook.token_sealed),
    urlVariables: openMap(ctx, hook.url_variables_sealed),
    customHeaders: openMap(ctx, hook.custom_headers_sealed),
  }
}

function hookKeys(ctx: ServerContext, hook: HookRow): HookKeys {
  return {
    urlVariables: Object.keys(openMap(ctx, hook.url_variables_sealed)),
    customHeaders: Object.keys(openMap(ctx, hook.custom_headers_sealed)),
  }
}

/** A project or group hook as GitLab's ProjectHook or GroupHook entity. */
export function presentHook(caller: Caller, hook: HookRow): ProjectHook | GroupHook {
  const keys = hookKeys(caller.ctx, hook)
  return hook.type === 'GroupHook'
    ? groupHookEntity(hook, keys, caller.clock())
    : projectHookEntity(hook, keys, caller.clock())
}

/** A system hook as GitLab's SystemHook entity. */
export function presentSystemHook(caller: Caller, hook: HookRow): SystemHook {
  return systemHookEntity(hook, hookKeys(caller.ctx, hook), caller.clock())
}

// ---- writes -------------------------------------------------------------------------------

const URL_VARIABLE_KEY = /^[A-Za-z0-9_]{1,255}$/
/** GitLab's header name (its custom headers JSON schema), within a length we can store and send. */
const HEADER_KEY = /^(?=.{1,255}$)[A-Za-z]+[0-9]*(?:[._-][A-Za-z0-9]+)*$/
/**
 * Headers the delivery sets itself. GitLab lets its own win over a custom one of the same name;
 * here a custom one is refused, as fetch would send both, joined, when the case differs.
 */
const RESERVED_HEADERS = /^(x-gitlab-|content-type$|user-agent$|idempotency-key$|host$|content-length$)/i
/**
 * GitLab's 1 to 2048 characters, and what fetch can send: a byte string without CR, LF or NUL
 * (GitLab would store such a value and fail each delivery).
 */
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]{1,2048}$/
/** GitLab's schema allows 20 custom headers on a hook. */
const MAX_CUSTOM_HEADERS = 20

function keyValueMap(
  pairs: readonly KeyValue[],
  valid: (key: string, value: string) => boolean,
  refused: () => ApiError,
): Record<string, string> {
  const map: Record<string, string> = {}
  for (const { key, value } of pairs) {
    if (!valid(key, value)) throw refused()
    map[key] = value
  }
  return map
}

const validHeader = (key: string, value: string): boolean =>
  HEADER_KEY.test(key) && !RESERVED_HEADERS.test(key) && HEADER_VALUE.test(value)

/**
 * The URL as the guard sees it once URL variables are filled in: refused with GitLab's reason
 * (`is blocked: Requests to loopback addresses are not allowed`) as a 422 validation message. As
 * in GitLab, a host name that does not resolve yet is accepted: each delivery checks it again.
 */
async function assertDeliverableUrl(caller: Caller, owner: HookOwner, url: string): Promise<void> {
  const setting =
    owner.kind === 'system'
      ? 'allow_local_requests_from_system_hooks'
      : 'allow_local_requests_from_web_hooks_and_services'
  try {
    // Variables stand for URL parts the guard cannot know yet: check with a placeholder in their place.
    await checkOutboundUrl(url.replace(/\{[A-Za-z0-9_]+\}/g, 'x'), outboundPolicy(caller.ctx, setting))
  } catch (error) {
    if (!(error instanceof BlockedUrlError)) throw error
    if (error.message === UNRESOLVED_HOST) return
    throw unprocessable({ url: [`is blocked: ${error.message}`] })
  }
}

/** The guard's reason for a host name that has no address (GitLab's text). */
const UNRESOLVED_HOST = 'Host cannot be resolved or invalid'

function assertBranchFilter(strategy: BranchFilterStrategy, filter: string | null): void {
  if (strategy !== 'regex' || filter === null) return
  try {
    new RegExp(filter)
  } catch {
    throw unprocessable('Invalid branch filter given')
  }
}

/** GitLab's defaults: project and group hooks get pushes; system hooks get repository updates. */
function defaultFlag(owner: HookOwner, flag: HookEventFlag): boolean {
  return owner.kind === 'system' ? flag === 'repository_update_events' : flag === 'push_events'
}

async function hookFields(
  caller: Caller,
  owner: HookOwner,
  params: HookParams,
  current: HookRow | null,
): Promise<HookFields> {
  const ctx = caller.ctx
  const url = (params.url ?? current?.url ?? '').trim()
  if (url === '') throw unprocessable({ url: ["can't be blank"] })
  await assertDeliverableUrl(caller, owner, url)
  const flagged = (flag: HookEventFlag): boolean =>
    params.flags[flag] ?? (current ? current[flag] === 1 : defaultFlag(owner, flag))
  const strategy = params.branchFilterStrategy ?? current?.branch_filter_strategy ?? 'wildcard'
  const filter =
    strategy === 'all_branches'
      ? null
      : params.pushEventsBranchFilter === undefined
        ? (current?.push_events_branch_filter ?? null)
        : params.pushEventsBranchFilter || null
  assertBranchFilter(strategy, filter)
  const creating = current === null
  // GitLab checks both sets against their JSON schemas when it saves the hook: a 422 whose body
  // is the create service's sentence on a create, and the model's errors (or, for custom headers,
  // the API's own sentence) on an update.
  const variables = {
    ...(current ? openMap(ctx, current.url_variables_sealed) : {}),
    ...keyValueMap(
      params.urlVariables ?? [],
      (k) => URL_VARIABLE_KEY.test(k),
      () =>
        creating
          ? unprocessable('Url variables must be a valid json schema')
          : unprocessable({ url_variables: ['must be a valid json schema'] }),
    ),
  }
  const headersRefused = (): ApiError =>
    unprocessable(creating ? 'Custom headers must be a valid json schema' : 'Custom headers validation failed')
  const headers = {
    ...(current ? openMap(ctx, current.custom_headers_sealed) : {}),
    ...keyValueMap(params.customHeaders ?? [], validHeader, headersRefused),
  }
  if (params.customHeaders !== undefined && Object.keys(headers).length > MAX_CUSTOM_HEADERS) throw headersRefused()
  const token = params.token === undefined ? (current?.token_sealed ?? null) : params.token || null
  return {
    ...(Object.fromEntries(HOOK_EVENT_FLAGS.map((f) => [f, flagged(f)])) as Record<HookEventFlag, boolean>),
    url,
    name: params.name === undefined ? (current?.name ?? null) : params.name,
    description: params.description === undefined ? (current?.description ?? null) : params.description,
    tokenSealed: params.token === undefined ? token : token === null ? null : ctx.secrets.seal(token),
    urlVariablesSealed: sealMap(ctx, variables),
    customHeadersSealed: sealMap(ctx, headers),
    pushEventsBranchFilter: filter,
    branchFilterStrategy: strategy,
    enableSslVerification: params.enableSslVerification ?? (current ? current.enable_ssl_verification === 1 : true),
  }
}

/** Adds a hook to the owner; the URL must pass the outbound guard. */
export async function createHook(caller: Caller, owner: HookOwner, params: HookParams): Promise<HookRow> {
  assertMayAdminHooks(caller, owner)
  const fields = await hookFields(caller, owner, params, null)
  return insertHook(caller.db, ownerKey(owner), fields, caller.clock().toISOString())
}

/**
 * Changes the fields sent. A new URL or token re-enables an auto-disabled hook, as a fixed
 * receiver is what the user is telling us about.
 */
export async function updateHook(
  caller: Caller,
  owner: HookOwner,
  hook: HookRow,
  params: HookParams,
): Promise<HookRow> {
  assertMayAdminHooks(caller, owner)
  const fields = await hookFields(caller, owner, params, hook)
  const reenable = fields.url !== hook.url || params.token !== undefined
  return updateHookRow(caller.db, hook.id, fields, caller.clock().toISOString(), reenable)
}

/** Removes a hook and its delivery log. */
export function deleteHook(caller: Caller, owner: HookOwner, hook: HookRow): void {
  assertMayAdminHooks(caller, owner)
  deleteHookRow(caller.db, hook.id)
}

/** Which of a hook's key/value sets a call changes. */
export type HookKeyValueSet = 'url_variables' | 'custom_headers'

/** Sets (value) or removes (null) one URL variable or custom header of a hook. */
export function setHookKeyValue(
  caller: Caller,
  owner: HookOwner,
  hook: HookRow,
  set: HookKeyValueSet,
  key: string,
  value: string | null,
): void {
  assertMayAdminHooks(caller, owner)
  const column = set === 'url_variables' ? hook.url_variables_sealed : hook.custom_headers_sealed
  const map = openMap(caller.ctx, column)
  if (value === null) {
    if (!Object.hasOwn(map, key)) throw notFound(set === 'url_variables' ? 'URL variable' : 'Custom header')
    delete map[key]
  } else {
    // GitLab saves the hook with the new pair and answers its validation failure as a 422.
    const valid =
      set === 'url_variables'
        ? URL_VARIABLE_KEY.test(key)
        : validHeader(key, value) && (Object.hasOwn(map, key) || Object.keys(map).length < MAX_CUSTOM_HEADERS)
    if (!valid) throw unprocessable('Illegal key or value')
    map[key] = value
  }
  const fields = fieldsOfRow(hook)
  updateHookRow(
    caller.db,
    hook.id,
    {
      ...fields,
      ...(set === 'url_variables'
        ? { urlVariablesSealed: sealMap(caller.ctx, map) }
        : { customHeadersSealed: sealMap(caller.ctx, map) }),
    },
    caller.clock().toISOString(),
    false,
  )
}

function fieldsOfRow(hook: HookRow): HookFields {
  return {
    ...(Object.fromEntries(HOOK_EVENT_FLAGS.map((f) => [f, hook[f] === 1])) as Record<HookEventFlag, boolean>),
    url: hook.url,
    name: hook.name,
    description: hook.description,
    tokenSealed: hook.token_sealed,
    urlVariablesSealed: hook.url_variables_sealed,
    customHeadersSealed: hook.custom_headers_sealed,
    pushEventsBranchFilter: hook.push_events_branch_filter,
    branchFilterStrategy: hook.branch_filter_strategy,
    enableSslVerification: hook.enable_ssl_verification === 1,
  }
}

// ---- deliveries ---------------------------------------------------------------------------

/** GitLab lists a hook's deliveries of the last seven days. */
const EVENTS_WINDOW_MS = 7 * 24 * 60 * 60_000

/** A hook's recent deliveries, newest first. */
export function hookEvents(
  caller: Caller,
  owner: HookOwner,
  hook: HookRow,
  filter?: HookLogStatusFilter,
): HookLogRow[] {
  assertMayAdminHooks(caller, owner)
  const since = new Date(caller.clock().getTime() - EVENTS_WINDOW_MS).toISOString()
  return hookLogsOf(caller.db, hook.id, since, filter)
}

/** One of a hook's deliveries, or 404. */
export function loadHookEvent(caller: Caller, owner: HookOwner, hook: HookRow, id: number): HookLogRow {
  assertMayAdminHooks(caller, owner)
  const log = findHookLog(caller.db, hook.id, id)
  if (!log) throw notFound('Hook event')
  return log
}

function isSuccess(log: HookLogRow): boolean {
  return /^2\d\d$/.test(log.response_status)
}

/** A log's outcome as an error message: the status or the reason no answer came. */
function failureMessage(log: HookLogRow): string {
  return log.internal_error_message ?? `Hook execution failed: ${log.response_status}`
}

/** Delivers during the caller's request (a test or resend): 404 when the hook went away meanwhile. */
async function deliverNow(caller: Caller, hook: HookRow, delivery: Delivery): Promise<HookLogRow> {
  const log = await deliver(caller.ctx, hook, delivery, openHookSecrets)
  if (!log) throw notFound('Hook')
  return log
}

/** Sends a past delivery's payload again, now, whatever the hook's alert status; answers the new log. */
export async function resendHookEvent(
  caller: Caller,
  owner: HookOwner,
  hook: HookRow,
  log: HookLogRow,
): Promise<HookLogRow> {
  assertMayAdminHooks(caller, owner)
  // GitLab's ResendService: a payload goes only where it was first sent. (GitLab compares the
  // interpolated URL; the log keeps the template, so a changed URL variable does not count here.)
  if (log.url !== hook.url) throw unprocessable('The hook URL has changed, and this log entry cannot be retried')
  const flag = HOOK_EVENT_FLAGS.find((f) => HOOK_TRIGGERS[f].trigger === log.trigger)
  const delivery: Delivery = {
    hookId: hook.id,
    trigger: log.trigger,
    event: flag ? HOOK_TRIGGERS[flag].event : 'System Hook',
    payload: JSON.parse(log.request_data) as Record<string, unknown>,
    eventUuid: newEventUuid(),
  }
  const resent = await deliverNow(caller, hook, delivery)
  if (resent.response_status === 'internal error') throw unprocessable(failureMessage(resent))
  return resent
}

/** Sample data for a test delivery of one trigger, or the reason there is none (GitLab's `Ensure the project has…`). */
export type SampleBuilder = (caller: Caller, project: ProjectWithNamespaceRow) => Promise<Record<string, unknown>>

const samples = new Map<HookEventFlag, SampleBuilder>()

/** Registers how to build a trigger's test payload (payload modules fill this in). */
export function registerHookSample(flag: HookEventFlag, build: SampleBuilder): void {
  samples.set(flag, build)
}

/** The sample push: the latest commits of the default branch, as if they had just been pushed. */
async function samplePush(caller: Caller, project: ProjectWithNamespaceRow): Promise<Record<string, unknown>> {
  const gitDir = projectGitDir(caller.ctx, project)
  const branch = project.default_branch ?? 'main'
  const head = repoExists(gitDir)
    ? (await gitText(['rev-parse', '--verify', '--quiet', `refs/heads/${branch}`], { gitDir }).catch(() => '')).trim()
    : ''
  if (head === '') throw unprocessable('Ensure the project has at least one commit.')
  const parents = (await gitText(['rev-list', '--max-count=4', head], { gitDir })).trim().split('\n')
  const before = parents.length > 3 ? parents[3] : ZERO_SHA
  return pushPayload(caller.ctx, gitDir, project, signedIn(caller), {
    oldSha: before,
    newSha: head,
    ref: `refs/heads/${branch}`,
  })
}

/** The sample tag push: the newest tag, as if it had just been pushed. */
async function sampleTagPush(caller: Caller, project: ProjectWithNamespaceRow): Promise<Record<string, unknown>> {
  const gitDir = projectGitDir(caller.ctx, project)
  const latest = repoExists(gitDir)
    ? (
        await gitText(
          ['for-each-ref', '--sort=-creatordate', '--count=1', '--format=%(refname)%00%(objectname)', 'refs/tags'],
          {
            gitDir,
          },
        )
      ).trim()
    : ''
  if (latest === '') throw unprocessable('Ensure the project has at least one tag.')
  const [ref, sha] = latest.split('\0')
  return tagPushPayload(caller.ctx, gitDir, project, signedIn(caller), { oldSha: ZERO_SHA, newSha: sha, ref })
}

registerHookSample('push_events', samplePush)
registerHookSample('tag_push_events', sampleTagPush)

function signedIn(caller: Caller): UserRow {
  if (!caller.user) throw forbidden()
  return caller.user
}

/** The project a test delivery describes: the hook's own, or (group hooks) the group's first project. */
function sampleProject(caller: Caller, owner: HookOwner): ProjectWithNamespaceRow {
  const id = owner.kind === 'project' ? owner.project.id : null
  const project = id === null ? firstProjectOf(caller, owner) : findProjectWithNamespace(caller.db, id)
  if (!project) throw unprocessable('Ensure the group has a project.')
  return project
}

function firstProjectOf(caller: Caller, owner: HookOwner): ProjectWithNamespaceRow | undefined {
  if (owner.kind !== 'group') return undefined
  const id = firstProjectInGroup(caller.db, owner.group.id)
  return id === undefined ? undefined : findProjectWithNamespace(caller.db, id)
}

/**
 * GitLab's test hook: builds the trigger's sample payload from the project's latest data and
 * delivers it now, whatever the hook's alert status; a success re-enables a disabled hook.
 * A failed delivery is a 422 with its reason.
 */
export async function testHook(
  caller: Caller,
  owner: HookOwner,
  hook: HookRow,
  flag: HookEventFlag,
): Promise<HookLogRow> {
  assertMayAdminHooks(caller, owner)
  const build = samples.get(flag)
  if (!build) throw unprocessable(`Testing not available for this hook (${flag})`)
  const payload = await build(caller, sampleProject(caller, owner))
  const { trigger, event } = HOOK_TRIGGERS[flag]
  const log = await deliverNow(caller, hook, { hookId: hook.id, trigger, event, payload, eventUuid: newEventUuid() })
  if (!isSuccess(log)) throw unprocessable(failureMessage(log))
  return log
}

/** GitLab's system hook test payload: a sample `project_create`. */
export async function testSystemHook(caller: Caller, hook: HookRow): Promise<Record<string, unknown>> {
  assertMayAdminHooks(caller, { kind: 'system' })
  const payload = {
    project_id: 1,
    owner_email: 'example@gitlabhq.com',
    owner_name: 'Someone',
    name: 'Ruby',
    path: 'ruby',
    event_name: 'project_create',
  }
  await deliverNow(caller, hook, {
    hookId: hook.id,
    trigger: 'system_hooks',
    event: 'System Hook',
    payload,
    eventUuid: newEventUuid(),
  })
  return payload
}

// ---- events -------------------------------------------------------------------------------

/** Whether a branch passes a hook's push filter (GitLab's wildcard, regex or all branches). */
export function branchMatches(hook: HookRow, branch: string): boolean {
  const filter = hook.push_events_branch_filter
  if (hook.branch_filter_strategy === 'all_branches' || filter === null || filter === '') return true
  if (hook.branch_filter_strategy === 'regex') {
    try {
      return new RegExp(filter).test(branch)
    } catch {
      return false
    }
  }
  const pattern = filter
    .split('*')
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*')
  return new RegExp(`^${pattern}$`).test(branch)
}

/** Queues one event for the hooks given, in the background, with one event id for them all. */
export function enqueueEvent(
  ctx: ServerContext,
  hooks: readonly HookRow[],
  flag: HookEventFlag,
  payload: Readonly<Record<string, unknown>>,
): void {
  if (hooks.length === 0) return
  const eventUuid = newEventUuid()
  const { trigger, event } = HOOK_TRIGGERS[flag]
  for (const hook of hooks)
    enqueueDelivery(ctx, { hookId: hook.id, trigger, event, payload, eventUuid }, openHookSecrets)
}

/** The project and system hooks that take a project event, all of them subscribed to `flag`. */
export function hooksForProjectEvent(ctx: ServerContext, projectId: number, flag: HookEventFlag): HookRow[] {
  const system = SYSTEM_HOOK_FLAGS.includes(flag) ? systemEventHooks(ctx.db, flag) : []
  return [...projectEventHooks(ctx.db, projectId, flag), ...system]
}

async function deliverRefUpdate(push: PushContext, project: ProjectWithNamespaceRow, update: RefUpdate): Promise<void> {
  const gitDir = projectGitDir(push.ctx, project)
  if (update.ref.startsWith('refs/heads/')) {
    const branch = update.ref.slice('refs/heads/'.length)
    const hooks = hooksForProjectEvent(push.ctx, project.id, 'push_events').filter((h) => branchMatches(h, branch))
    if (hooks.length > 0)
      enqueueEvent(push.ctx, hooks, 'push_events', await pushPayload(push.ctx, gitDir, project, push.user, update))
  } else if (update.ref.startsWith('refs/tags/')) {
    const hooks = hooksForProjectEvent(push.ctx, project.id, 'tag_push_events')
    if (hooks.length > 0)
      enqueueEvent(
        push.ctx,
        hooks,
        'tag_push_events',
        await tagPushPayload(push.ctx, gitDir, project, push.user, update),
      )
  }
}

/**
 * The push listener: a push or tag push event per updated branch or tag, to the hooks that take
 * it. The payloads are read from git in the background, after the push has answered.
 */
export function deliverPushHooks(push: PushContext): void {
  const wanted = (['push_events', 'tag_push_events'] as const).some(
    (flag) => hooksForProjectEvent(push.ctx, push.project.id, flag).length > 0,
  )
  if (!wanted) return
  inBackground(push.ctx, async () => {
    const project = findProjectWithNamespace(push.ctx.db, push.project.id)
    if (!project) return
    for (const update of push.updates) await deliverRefUpdate(push, project, update)
  })
}
