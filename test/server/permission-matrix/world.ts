import type { LightMyRequestResponse } from 'fastify'
import { AccessLevel } from '../../../src/server/platform/auth/access'
import type { NamespaceRow, ProjectRow, Visibility } from '../../../src/server/platform/db/rows'
import { seedGroup, seedMember, seedProject } from '../../helpers/fixtures'
import { makeServer, ROOT_TOKEN, seedUser, type TestServer } from '../../helpers/server'

/** Who calls: nobody, signed-in users outside the containers, each member role, an administrator. */
export const ACTORS = [
  'anonymous',
  'nonMember',
  'external',
  'guest',
  'reporter',
  'developer',
  'maintainer',
  'owner',
  'admin',
] as const
export type ActorName = (typeof ACTORS)[number]

export const VISIBILITIES: readonly Visibility[] = ['private', 'internal', 'public']

/** The member roles of the world, held at group level so each project inherits them. */
export const MEMBER_LEVELS: Readonly<Partial<Record<ActorName, number>>> = {
  guest: AccessLevel.GUEST,
  reporter: AccessLevel.REPORTER,
  developer: AccessLevel.DEVELOPER,
  maintainer: AccessLevel.MAINTAINER,
  owner: AccessLevel.OWNER,
}

export type Json = Record<string, unknown>
export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'

/** A group of one visibility holding one project of the same visibility. */
export interface Container {
  readonly visibility: Visibility
  readonly group: NamespaceRow
  readonly project: ProjectRow
}

export interface World {
  readonly server: TestServer
  readonly containers: Readonly<Record<Visibility, Container>>
  /** The token of each actor (null for anonymous). */
  readonly tokens: Readonly<Record<ActorName, string | null>>
  readonly userIds: Readonly<Record<Exclude<ActorName, 'anonymous'>, number>>
  /** Sends an API request (`path` below /api/v4) as `actor`. */
  call(actor: ActorName, method: Method, path: string, body?: Json): Promise<LightMyRequestResponse>
  /** Sends a git smart HTTP request (`path` from the root) as `actor`, with its token as the basic-auth password. */
  callGit(actor: ActorName, method: Method, path: string): Promise<LightMyRequestResponse>
  /** Sends an API request as the administrator and fails unless it answers 2xx; returns the JSON body. */
  admin<T = Json>(method: Method, path: string, body?: Json): Promise<T>
  close(): Promise<void>
}

/**
 * Builds the world every matrix file tests against: one server, the nine actors, and a private,
 * an internal and a public group each holding a project of its visibility, with the five member
 * roles granted on each group. Users, groups, projects and memberships are written straight to the
 * database; the resources a family needs are created by its file through the administrator.
 */
export async function buildWorld(): Promise<World> {
  const server = await makeServer()
  const seeded = {
    nonMember: seedUser(server, { username: 'matrix-outsider' }),
    external: seedUser(server, { username: 'matrix-external', external: true }),
    guest: seedUser(server, { username: 'matrix-guest' }),
    reporter: seedUser(server, { username: 'matrix-reporter' }),
    developer: seedUser(server, { username: 'matrix-developer' }),
    maintainer: seedUser(server, { username: 'matrix-maintainer' }),
    owner: seedUser(server, { username: 'matrix-owner' }),
  }
  const containers = {} as Record<Visibility, Container>
  for (const visibility of VISIBILITIES) {
    const group = seedGroup(server, { path: `matrix-${visibility}`, visibility })
    const project = seedProject(server, { namespaceId: group.id, path: `${visibility}-project`, visibility })
    for (const [actor, level] of Object.entries(MEMBER_LEVELS)) {
      seedMember(server, 'Namespace', group.id, seeded[actor as keyof typeof seeded].user.id, level)
    }
    containers[visibility] = { visibility, group, project }
  }
  const tokens: Record<ActorName, string | null> = {
    anonymous: null,
    admin: ROOT_TOKEN,
    ...mapValues(seeded, (u) => u.token),
  }
  const rootId = server.app.burrow.db.prepare("SELECT id FROM users WHERE username = 'root'").pluck().get() as number
  const userIds = { admin: rootId, ...mapValues(seeded, (u) => u.user.id) }

  const call = (actor: ActorName, method: Method, path: string, body?: Json): Promise<LightMyRequestResponse> =>
    server.request(tokens[actor], { method, url: `/api/v4${path}`, ...(body === undefined ? {} : { payload: body }) })

  const callGit = (actor: ActorName, method: Method, path: string): Promise<LightMyRequestResponse> => {
    const token = tokens[actor]
    const headers = token ? { authorization: `Basic ${Buffer.from(`${actor}:${token}`).toString('base64')}` } : {}
    return server.app.inject({ method, url: path, headers })
  }

  return {
    server,
    containers,
    tokens,
    userIds,
    call,
    callGit,
    async admin<T>(method: Method, path: string, body?: Json): Promise<T> {
      const res = await call('admin', method, path, body)
      if (res.statusCode >= 300) throw new Error(`setup ${method} ${path} answered ${res.statusCode}: ${res.body}`)
      return (res.body ? JSON.parse(res.body) : {}) as T
    },
    close: () => server.close(),
  }
}

let freshSeq = 0

/** A new project in the container's group (its members inherit their roles), for writes that consume one. */
export function freshProject(world: World, container: Container): ProjectRow {
  freshSeq += 1
  return seedProject(world.server, {
    namespaceId: container.group.id,
    path: `fresh-${freshSeq}`,
    visibility: container.visibility,
  })
}

/** A new group of the container's visibility where each member actor holds its role. */
export function freshGroup(world: World, container: Container): NamespaceRow {
  freshSeq += 1
  const group = seedGroup(world.server, { path: `fresh-group-${freshSeq}`, visibility: container.visibility })
  for (const [actor, level] of Object.entries(MEMBER_LEVELS)) {
    seedMember(world.server, 'Namespace', group.id, world.userIds[actor as keyof World['userIds']], level)
  }
  return group
}

/** A new user who belongs nowhere (someone to add as a member, or who asked for access). */
export function freshUser(world: World): number {
  freshSeq += 1
  return seedUser(world.server, { username: `fresh-user-${freshSeq}` }).user.id
}

function mapValues<K extends string, V, W>(record: Readonly<Record<K, V>>, f: (v: V) => W): Record<K, W> {
  return Object.fromEntries(Object.entries(record).map(([k, v]) => [k, f(v as V)])) as Record<K, W>
}
