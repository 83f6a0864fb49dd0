import { isDeepStrictEqual } from 'node:util'
import { describe, expect, it } from 'vitest'
import type { Visibility } from '../../../src/server/platform/db/rows'
import {
  ACTORS,
  MEMBER_LEVELS,
  VISIBILITIES,
  type ActorName,
  type Container,
  type Json,
  type Method,
  type World,
} from './world'

/**
 * The least a caller needs: `anyone` (anonymous included), `signedIn` (any signed-in user who can
 * see the container), a member role, `admin` (administrators only) or `nobody` (not even them).
 */
export type Role =
  'anyone' | 'signedIn' | 'guest' | 'reporter' | 'developer' | 'maintainer' | 'owner' | 'admin' | 'nobody'

/** A refusal's status: 404 hides, 403 forbids, 401 asks to sign in; 400 where GitLab answers a bad request. */
export type Refusal = 400 | 401 | 403 | 404

/** Values a row's path and body are filled with: `{project}` and `{group}` always, the rest from its fixture. */
export type Vars = Readonly<Record<string, string | number>>

/** One route of the matrix: who may call it on each visibility and how the others are refused. */
export interface MatrixRow {
  readonly method: Method
  /** Below /api/v4, with `{name}` placeholders filled from the vars. */
  readonly path: string
  /** The minimum role, one for every visibility or one per visibility. */
  readonly min: Role | Readonly<Record<Visibility, Role>>
  /**
   * Who may read the resource family at all (merge requests, code…), when that is more than seeing
   * the container: callers below it get `unreadable` before the row's own role is looked at.
   */
  readonly readable?: Role | Readonly<Record<Visibility, Role>>
  /** Status for a caller who sees the container but not the resource family (default 403). */
  readonly unreadable?: Refusal
  /**
   * An instance-level route (no project or group in the path): every actor sees it, and it is
   * tested once rather than per visibility.
   */
  readonly instance?: boolean
  /** The route authenticates before anything else (GitLab's `before { authenticate! }`): anonymous is always 401. */
  readonly authenticated?: boolean
  /** Status for a caller who sees the container but lacks the role (default 403). */
  readonly refusal?: Refusal
  /** Status for an anonymous caller who sees the container but lacks the role (default 401). */
  readonly anonymous?: Refusal
  /** Status for a caller who cannot see the container at all (default 404; anonymous writes 401). */
  readonly hidden?: Refusal
  /** Status for an anonymous caller who cannot see the container (default: 401 for writes, else as `hidden`). */
  readonly anonymousHidden?: Refusal
  /** `git`: the path is a smart HTTP URL from the root, sent with the token as basic-auth password. */
  readonly transport?: 'api' | 'git'
  /** Statuses that depart from the rule for single actors (say why in `why`). */
  readonly except?: Readonly<Partial<Record<ActorName, number>>>
  /** Success status (default 200, 201 for POST, 204 for DELETE). */
  readonly ok?: number
  readonly body?: Json | ((vars: Vars, unique: string) => Json)
  /**
   * Makes what one attempt acts on (a fresh issue to delete…). Writes call it once for all the
   * refused callers (who must change nothing) and once more for the caller who succeeds.
   */
  readonly fixture?: (world: World, container: Container) => Promise<Vars>
  /**
   * A path read back as the administrator to prove a refused write changed nothing (default: the
   * row's own path for PUT, PATCH and DELETE, the collection itself for POST).
   */
  readonly readBack?: string
  /** Why the expectation is what it is, when it departs from the defaults or looks surprising. */
  readonly why?: string
  /** Tells apart rows of one route in test names (what the fixture or body makes different). */
  readonly label?: string
}

const ROLE_LEVEL: Readonly<Record<Role, number>> = {
  anyone: 0,
  signedIn: 0,
  guest: 10,
  reporter: 20,
  developer: 30,
  maintainer: 40,
  owner: 50,
  admin: Number.POSITIVE_INFINITY,
  nobody: Number.POSITIVE_INFINITY,
}

/** Whether the actor can see a container of this visibility at all (GitLab's visibility levels). */
export function canSee(actor: ActorName, visibility: Visibility): boolean {
  if (actor === 'admin' || MEMBER_LEVELS[actor] !== undefined) return true
  if (visibility === 'public') return true
  return visibility === 'internal' && actor === 'nonMember'
}

function roleFor(role: Role | Readonly<Record<Visibility, Role>>, visibility: Visibility): Role {
  return typeof role === 'string' ? role : role[visibility]
}

function meets(actor: ActorName, role: Role): boolean {
  if (role === 'nobody') return false
  if (actor === 'admin') return true
  if (role === 'anyone') return true
  if (role === 'signedIn') return actor !== 'anonymous'
  return (MEMBER_LEVELS[actor] ?? 0) >= ROLE_LEVEL[role]
}

function successStatus(row: MatrixRow): number {
  if (row.ok) return row.ok
  return row.method === 'POST' ? 201 : row.method === 'DELETE' ? 204 : 200
}

/** The status GitLab answers `actor` for this row on a container of this visibility. */
export function expectedStatus(row: MatrixRow, actor: ActorName, visibility: Visibility): number {
  const exception = row.except?.[actor]
  if (exception !== undefined) return exception
  if (actor === 'anonymous' && row.authenticated) return 401
  const write = row.method !== 'GET'
  if (!row.instance && !canSee(actor, visibility)) {
    if (actor === 'anonymous') return row.anonymousHidden ?? (write ? 401 : (row.hidden ?? 404))
    return row.hidden ?? 404
  }
  if (row.readable && !meets(actor, roleFor(row.readable, visibility)))
    return actor === 'anonymous' ? (row.anonymous ?? 401) : (row.unreadable ?? 403)
  if (meets(actor, roleFor(row.min, visibility))) return successStatus(row)
  if (actor === 'anonymous') return row.anonymous ?? 401
  return row.refusal ?? 403
}

function fill(template: string, vars: Vars): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = vars[name]
    if (value === undefined) throw new Error(`no value for {${name}} in ${template}`)
    return encodeURIComponent(String(value))
  })
}

let uniqueSeq = 0

async function varsFor(row: MatrixRow, world: World, container: Container): Promise<Vars> {
  const base = { project: container.project.id, group: container.group.id }
  return { ...base, ...(row.fixture ? await row.fixture(world, container) : {}) }
}

function bodyFor(row: MatrixRow, vars: Vars): Json | undefined {
  uniqueSeq += 1
  return typeof row.body === 'function' ? row.body(vars, `m${uniqueSeq}`) : row.body
}

/**
 * Fields a read computes on its own schedule: a merge request's mergeability is checked
 * asynchronously after it is read (as in GitLab), and a pending job's queued time grows; they
 * move between two reads without any write.
 */
const COMPUTED_FIELDS = new Set(['merge_status', 'detailed_merge_status', 'has_conflicts', 'queued_duration'])

function withoutComputedFields(body: string): string {
  try {
    return JSON.stringify(JSON.parse(body), (key, value: unknown) => (COMPUTED_FIELDS.has(key) ? undefined : value))
  } catch {
    return body
  }
}

/** What the administrator reads at the row's read-back path: status and body. */
async function snapshot(world: World, row: MatrixRow, vars: Vars): Promise<unknown> {
  const path = fill(row.readBack ?? row.path, vars)
  const res = await world.call('admin', 'GET', path.includes('?') ? path : `${path}?per_page=100`)
  return { status: res.statusCode, body: withoutComputedFields(res.body) }
}

/** The top-level keys whose values differ between two snapshots (what a refused write changed). */
function changedKeys(before: unknown, after: unknown): string {
  const parse = (snap: unknown): Record<string, unknown> => {
    const { status, body } = snap as { status: number; body: string }
    try {
      return { status, ...(JSON.parse(body) as Record<string, unknown>) }
    } catch {
      return { status, body }
    }
  }
  const a = parse(before)
  const b = parse(after)
  return [...new Set([...Object.keys(a), ...Object.keys(b)])]
    .filter((k) => !isDeepStrictEqual(a[k], b[k]))
    .map((k) => `${k}: ${JSON.stringify(a[k])} → ${JSON.stringify(b[k])}`.slice(0, 200))
    .join('; ')
}

function describeMismatch(actor: ActorName, expected: number, status: number, body: string): string {
  return `${actor}: expected ${expected}, got ${status} ${body.slice(0, 160)}`
}

/** Every actor reads; each answer must carry the expected status. */
async function checkRead(world: World, row: MatrixRow, container: Container): Promise<string[]> {
  const vars = await varsFor(row, world, container)
  const path = fill(row.path, vars)
  const mismatches: string[] = []
  for (const actor of ACTORS) {
    const expected = expectedStatus(row, actor, container.visibility)
    const res =
      row.transport === 'git'
        ? await world.callGit(actor, row.method, path)
        : await world.call(actor, row.method, path, bodyFor(row, vars))
    if (res.statusCode !== expected) mismatches.push(describeMismatch(actor, expected, res.statusCode, res.body))
  }
  return mismatches
}

/**
 * Every refused actor writes to one target, which must read back unchanged after each refusal;
 * then the least actor allowed writes to a fresh target and must succeed.
 */
async function checkWrite(world: World, row: MatrixRow, container: Container): Promise<string[]> {
  const mismatches: string[] = []
  const refused = ACTORS.filter((a) => expectedStatus(row, a, container.visibility) >= 400)
  const allowed = ACTORS.find((a) => expectedStatus(row, a, container.visibility) < 400)
  if (refused.length > 0) {
    const vars = await varsFor(row, world, container)
    const before = await snapshot(world, row, vars)
    for (const actor of refused) {
      const expected = expectedStatus(row, actor, container.visibility)
      const res = await world.call(actor, row.method, fill(row.path, vars), bodyFor(row, vars))
      if (res.statusCode !== expected) mismatches.push(describeMismatch(actor, expected, res.statusCode, res.body))
      const after = await snapshot(world, row, vars)
      if (!isDeepStrictEqual(after, before))
        mismatches.push(
          `${actor}: refused with ${res.statusCode} but changed ${fill(row.readBack ?? row.path, vars)}: ${changedKeys(before, after)}`,
        )
    }
  }
  if (allowed) {
    const vars = await varsFor(row, world, container)
    const expected = expectedStatus(row, allowed, container.visibility)
    const res = await world.call(allowed, row.method, fill(row.path, vars), bodyFor(row, vars))
    if (res.statusCode !== expected) mismatches.push(describeMismatch(allowed, expected, res.statusCode, res.body))
  }
  return mismatches
}

/** The rows of an API that authenticates every call (GitLab's `before { authenticate! }`). */
export function authenticatedRows(rows: readonly MatrixRow[]): MatrixRow[] {
  return rows.map((row) => ({ ...row, authenticated: true }))
}

/** Rows of routes outside any project or group (see MatrixRow.instance). */
export function instanceRows(rows: readonly MatrixRow[]): MatrixRow[] {
  return rows.map((row) => ({ ...row, instance: true }))
}

/**
 * Generates one test per row and visibility: reads are checked for all nine actors, writes for
 * every refused actor (nothing changes) and for the least allowed one (it succeeds).
 */
export function permissionMatrix(family: string, worldOf: () => World, rows: readonly MatrixRow[]): void {
  describe(family, () => {
    for (const row of rows) {
      for (const visibility of row.instance ? (['public'] as const) : VISIBILITIES) {
        it(`${row.method} ${row.path}${row.label ? ` (${row.label})` : ''} · ${row.instance ? 'instance' : visibility}`, async () => {
          const world = worldOf()
          const container = world.containers[visibility]
          const mismatches =
            row.method === 'GET' ? await checkRead(world, row, container) : await checkWrite(world, row, container)
          expect(mismatches, mismatches.join('\n')).toEqual([])
        })
      }
    }
  })
}
