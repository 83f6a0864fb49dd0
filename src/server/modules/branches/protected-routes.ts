import type { FastifyPluginAsync, FastifyRequest } from 'fastify'
import { Type, type Static } from 'typebox'
import { AccessLevel } from '../../platform/auth/access'
import {
  deleteProtectedBranch,
  findProtectedBranch,
  insertProtectedBranch,
  listProtectedBranches,
  updateProtectedBranch,
  type AccessGrant,
  type AccessKind,
  type ProtectedBranch,
} from './protected-queries'
import { protectedBranchEntity, type AccessNames } from './protected-entity'
import { isValidRef } from '../../platform/git/git'
import { projectGitDir } from '../../platform/git/project-repo'
import { conflict, invalidParam, notFound } from '../../platform/http/errors'
import { paginateArray } from '../../platform/http/pagination'
import { loadProject } from '../../platform/http/resolve'
import { writeForcePushRules } from './protected-service'

const ProjectParams = Type.Object({ id: Type.String() })
const NameParams = Type.Object({ id: Type.String(), name: Type.String() })
const LEVELS = [AccessLevel.NO_ACCESS, AccessLevel.DEVELOPER, AccessLevel.MAINTAINER, AccessLevel.ADMIN]
const Level = Type.Integer()
const Grants = Type.Array(Type.Record(Type.String(), Type.Unknown()))
const CreateBody = Type.Object({
  name: Type.String(),
  push_access_level: Type.Optional(Level),
  merge_access_level: Type.Optional(Level),
  unprotect_access_level: Type.Optional(Level),
  allow_force_push: Type.Optional(Type.Boolean()),
  code_owner_approval_required: Type.Optional(Type.Boolean()),
  allowed_to_push: Type.Optional(Grants),
  allowed_to_merge: Type.Optional(Grants),
  allowed_to_unprotect: Type.Optional(Grants),
})
type CreateBody = Static<typeof CreateBody>
const UpdateBody = Type.Object({
  allow_force_push: Type.Optional(Type.Boolean()),
  code_owner_approval_required: Type.Optional(Type.Boolean()),
  allowed_to_push: Type.Optional(Grants),
  allowed_to_merge: Type.Optional(Grants),
  allowed_to_unprotect: Type.Optional(Grants),
})
type UpdateBody = Static<typeof UpdateBody>

const KINDS: readonly AccessKind[] = ['push', 'merge', 'unprotect']

function intOf(value: unknown): number | null {
  if (value === undefined || value === null || value === '') return null
  const n = typeof value === 'number' ? value : Number(value)
  return Number.isInteger(n) ? n : Number.NaN
}

function checkLevel(param: string, level: number | undefined): void {
  if (level !== undefined && !LEVELS.includes(level as (typeof LEVELS)[number]))
    throw invalidParam(param, 'does not have a valid value')
}

/** `allowed_to_push[]` entries as grants: each one role, user or group (400 otherwise). */
function grantsOf(param: string, raw: readonly Readonly<Record<string, unknown>>[] | undefined): AccessGrant[] {
  const grants: AccessGrant[] = []
  for (const entry of raw ?? []) {
    if (entry._destroy !== undefined) continue
    const level = intOf(entry.access_level)
    const userId = intOf(entry.user_id)
    const groupId = intOf(entry.group_id)
    const given = [level, userId, groupId].filter((v) => v !== null)
    if (given.length !== 1 || given.some((v) => Number.isNaN(v))) throw invalidParam(param, 'is invalid')
    if (level !== null) checkLevel(`${param}[access_level]`, level)
    grants.push({ access_level: level, user_id: userId, group_id: groupId })
  }
  return grants
}

/** Access-level ids an update removes (`{id, _destroy: true}` entries). */
function removalsOf(raw: readonly Readonly<Record<string, unknown>>[] | undefined): number[] {
  return (raw ?? [])
    .filter((e) => e._destroy === true || e._destroy === 'true' || e._destroy === 1)
    .map((e) => intOf(e.id))
    .filter((id): id is number => id !== null && !Number.isNaN(id))
}

function accessNames(request: FastifyRequest, branches: readonly ProtectedBranch[]): AccessNames {
  const db = request.server.burrow.db
  const userIds = branches.flatMap((b) => b.access.map((a) => a.user_id)).filter((id): id is number => id !== null)
  const groupIds = branches.flatMap((b) => b.access.map((a) => a.group_id)).filter((id): id is number => id !== null)
  const users = new Map<number, string>()
  const groups = new Map<number, string>()
  if (userIds.length > 0) {
    for (const r of db
      .prepare('SELECT id, name FROM users WHERE id IN (SELECT value FROM json_each(?))')
      .all(JSON.stringify(userIds)) as { id: number; name: string }[])
      users.set(r.id, r.name)
  }
  if (groupIds.length > 0) {
    for (const r of db
      .prepare('SELECT id, name FROM namespaces WHERE id IN (SELECT value FROM json_each(?))')
      .all(JSON.stringify(groupIds)) as { id: number; name: string }[])
      groups.set(r.id, r.name)
  }
  return { users, groups }
}

function present(request: FastifyRequest, branch: ProtectedBranch): Readonly<Record<string, unknown>> {
  return protectedBranchEntity(branch, accessNames(request, [branch]))
}

/** A protection name: a branch name where `*` may stand for any characters. */
function isValidRuleName(name: string): boolean {
  return name.trim() !== '' && isValidRef(name.replace(/\*/g, 'x'))
}

/** Protected branches of a project (GitLab's Protected branches API). */
const protectedBranches: FastifyPluginAsync = async (app) => {
  const ctx = app.burrow

  /** Keeps the force-push rules the git update hook reads in step with the table. */
  const syncHookRules = (projectId: number, project: Parameters<typeof projectGitDir>[1]): void => {
    writeForcePushRules(projectGitDir(ctx, project), listProtectedBranches(ctx.db, projectId))
  }

  app.get(
    '/projects/:id/protected_branches',
    { schema: { params: ProjectParams, querystring: Type.Object({ search: Type.Optional(Type.String()) }) } },
    async (request, reply) => {
      const { id } = request.params as Static<typeof ProjectParams>
      const { search } = request.query as { search?: string }
      const project = loadProject(request, id, AccessLevel.GUEST)
      let rules = listProtectedBranches(ctx.db, project.id)
      if (search) rules = rules.filter((r) => r.name.toLowerCase().includes(search.toLowerCase()))
      const page = paginateArray(request, reply, ctx.baseUrl(request), rules)
      const names = accessNames(request, page)
      return page.map((r) => protectedBranchEntity(r, names))
    },
  )

  app.get('/projects/:id/protected_branches/:name', { schema: { params: NameParams } }, async (request) => {
    const { id, name } = request.params as Static<typeof NameParams>
    const project = loadProject(request, id, AccessLevel.GUEST)
    const rule = findProtectedBranch(ctx.db, project.id, name)
    if (!rule) throw notFound()
    return present(request, rule)
  })

  app.post(
    '/projects/:id/protected_branches',
    { schema: { params: ProjectParams, body: CreateBody } },
    async (request, reply) => {
      const { id } = request.params as Static<typeof ProjectParams>
      const body = request.body as CreateBody
      const project = loadProject(request, id, AccessLevel.MAINTAINER)
      if (!isValidRuleName(body.name)) throw invalidParam('name')
      checkLevel('push_access_level', body.push_access_level)
      checkLevel('merge_access_level', body.merge_access_level)
      checkLevel('unprotect_access_level', body.unprotect_access_level)
      if (findProtectedBranch(ctx.db, project.id, body.name))
        throw conflict(`Protected branch '${body.name}' already exists`)
      const access = {} as Record<AccessKind, AccessGrant[]>
      for (const kind of KINDS) {
        const listed = grantsOf(`allowed_to_${kind}`, body[`allowed_to_${kind}`])
        const level = body[`${kind}_access_level`]
        // Maintainers by default for push and merge, unless explicit users, groups or roles were given.
        const fallback = kind !== 'unprotect' && listed.length === 0 ? [{ access_level: AccessLevel.MAINTAINER }] : []
        access[kind] = level !== undefined ? [{ access_level: level }, ...listed] : [...fallback, ...listed]
      }
      const rule = insertProtectedBranch(ctx.db, {
        projectId: project.id,
        name: body.name,
        allowForcePush: body.allow_force_push === true,
        codeOwnerApprovalRequired: body.code_owner_approval_required === true,
        access,
      })
      syncHookRules(project.id, project)
      return reply.code(201).send(present(request, rule))
    },
  )

  app.patch(
    '/projects/:id/protected_branches/:name',
    { schema: { params: NameParams, body: UpdateBody } },
    async (request) => {
      const { id, name } = request.params as Static<typeof NameParams>
      const body = request.body as UpdateBody
      const project = loadProject(request, id, AccessLevel.MAINTAINER)
      const rule = findProtectedBranch(ctx.db, project.id, name)
      if (!rule) throw notFound()
      const add: Partial<Record<AccessKind, AccessGrant[]>> = {}
      const remove: number[] = []
      for (const kind of KINDS) {
        const raw = body[`allowed_to_${kind}`]
        add[kind] = grantsOf(
          `allowed_to_${kind}`,
          raw?.filter((e) => e.id === undefined),
        )
        remove.push(...removalsOf(raw))
      }
      const updated = updateProtectedBranch(ctx.db, rule, {
        allowForcePush: body.allow_force_push,
        codeOwnerApprovalRequired: body.code_owner_approval_required,
        add,
        remove,
      })
      syncHookRules(project.id, project)
      return present(request, updated)
    },
  )

  app.delete('/projects/:id/protected_branches/:name', { schema: { params: NameParams } }, async (request, reply) => {
    const { id, name } = request.params as Static<typeof NameParams>
    const project = loadProject(request, id, AccessLevel.MAINTAINER)
    const rule = findProtectedBranch(ctx.db, project.id, name)
    if (!rule) throw notFound()
    deleteProtectedBranch(ctx.db, rule.id)
    syncHookRules(project.id, project)
    return reply.code(204).send()
  })
}

export default protectedBranches
