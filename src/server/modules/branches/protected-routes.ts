import * as Api from '../../../shared/api/index'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { AccessLevel } from '../../platform/auth/access'
import { callerOf } from '../../platform/caller'
import { findProtectedBranch, listProtectedBranches, type AccessGrant, type AccessKind } from './protected-queries'
import { isValidRef } from '../../platform/git/git'
import { invalidParam, notFound } from '../../platform/http/errors'
import { given, intOf } from '../../platform/http/loose-params'
import { paginateArray } from '../../platform/http/pagination'
import { loadProject } from '../../platform/http/resolve'
import { presentProtectedBranches, protectBranch, unprotectBranch, updateBranchProtection } from './protected-service'

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
const UpdateBody = Type.Object({
  allow_force_push: Type.Optional(Type.Boolean()),
  code_owner_approval_required: Type.Optional(Type.Boolean()),
  allowed_to_push: Type.Optional(Grants),
  allowed_to_merge: Type.Optional(Grants),
  allowed_to_unprotect: Type.Optional(Grants),
})

const KINDS: readonly AccessKind[] = ['push', 'merge', 'unprotect']

/** One integer field of a grant: null when absent, 400 `<param> is invalid` when not an integer. */
function grantField(param: string, raw: unknown): number | null {
  return given(raw) ? intOf(param, raw) : null
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
    const level = grantField(param, entry.access_level)
    const userId = grantField(param, entry.user_id)
    const groupId = grantField(param, entry.group_id)
    if ([level, userId, groupId].filter((v) => v !== null).length !== 1) throw invalidParam(param, 'is invalid')
    if (level !== null) checkLevel(`${param}[access_level]`, level)
    grants.push({ access_level: level, user_id: userId, group_id: groupId })
  }
  return grants
}

/** Access-level ids an update removes (`{id, _destroy: true}` entries; an id that is no integer removes nothing). */
function removalsOf(raw: readonly Readonly<Record<string, unknown>>[] | undefined): number[] {
  return (raw ?? [])
    .filter((e) => e._destroy === true || e._destroy === 'true' || e._destroy === 1)
    .map((e) => (given(e.id) && typeof e.id !== 'object' ? Number(e.id) : Number.NaN))
    .filter((id) => Number.isInteger(id))
}

/** A protection name: a branch name where `*` may stand for any characters. */
function isValidRuleName(name: string): boolean {
  return name.trim() !== '' && isValidRef(name.replace(/\*/g, 'x'))
}

/** Protected branches of a project (GitLab's Protected branches API). */
const protectedBranches: FastifyPluginAsyncTypebox = async (app) => {
  const ctx = app.burrow

  app.get(
    '/projects/:id/protected_branches',
    {
      schema: {
        params: ProjectParams,
        querystring: Type.Object({ search: Type.Optional(Type.String()) }),
        response: { 200: Type.Array(Api.ProtectedBranch) },
      },
    },
    async (request, reply) => {
      const { search } = request.query
      const project = loadProject(request, request.params.id, AccessLevel.GUEST)
      let rules = listProtectedBranches(ctx.db, project.id)
      if (search) rules = rules.filter((r) => r.name.toLowerCase().includes(search.toLowerCase()))
      return presentProtectedBranches(ctx.db, paginateArray(request, reply, callerOf(request).baseUrl, rules))
    },
  )

  app.get(
    '/projects/:id/protected_branches/:name',
    { schema: { params: NameParams, response: { 200: Api.ProtectedBranch } } },
    async (request) => {
      const project = loadProject(request, request.params.id, AccessLevel.GUEST)
      const rule = findProtectedBranch(ctx.db, project.id, request.params.name)
      if (!rule) throw notFound()
      return presentProtectedBranches(ctx.db, [rule])[0]
    },
  )

  app.post(
    '/projects/:id/protected_branches',
    { schema: { params: ProjectParams, body: CreateBody, response: { 201: Api.ProtectedBranch } } },
    async (request, reply) => {
      const body = request.body
      const project = loadProject(request, request.params.id, AccessLevel.MAINTAINER)
      if (!isValidRuleName(body.name)) throw invalidParam('name')
      checkLevel('push_access_level', body.push_access_level)
      checkLevel('merge_access_level', body.merge_access_level)
      checkLevel('unprotect_access_level', body.unprotect_access_level)
      const access = {} as Record<AccessKind, AccessGrant[]>
      for (const kind of KINDS) {
        const listed = grantsOf(`allowed_to_${kind}`, body[`allowed_to_${kind}`])
        const level = body[`${kind}_access_level`]
        // Maintainers by default for push and merge, unless explicit users, groups or roles were given.
        const fallback = kind !== 'unprotect' && listed.length === 0 ? [{ access_level: AccessLevel.MAINTAINER }] : []
        access[kind] = level !== undefined ? [{ access_level: level }, ...listed] : [...fallback, ...listed]
      }
      const rule = protectBranch(callerOf(request), project, {
        name: body.name,
        allowForcePush: body.allow_force_push === true,
        codeOwnerApprovalRequired: body.code_owner_approval_required === true,
        access,
      })
      return reply.code(201).send(presentProtectedBranches(ctx.db, [rule])[0])
    },
  )

  app.patch(
    '/projects/:id/protected_branches/:name',
    { schema: { params: NameParams, body: UpdateBody, response: { 200: Api.ProtectedBranch } } },
    async (request) => {
      const body = request.body
      const project = loadProject(request, request.params.id, AccessLevel.MAINTAINER)
      const rule = findProtectedBranch(ctx.db, project.id, request.params.name)
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
      const updated = updateBranchProtection(callerOf(request), project, rule, {
        allowForcePush: body.allow_force_push,
        codeOwnerApprovalRequired: body.code_owner_approval_required,
        add,
        remove,
      })
      return presentProtectedBranches(ctx.db, [updated])[0]
    },
  )

  app.delete('/projects/:id/protected_branches/:name', { schema: { params: NameParams } }, async (request, reply) => {
    const project = loadProject(request, request.params.id, AccessLevel.MAINTAINER)
    const rule = findProtectedBranch(ctx.db, project.id, request.params.name)
    if (!rule) throw notFound()
    unprotectBranch(callerOf(request), project, rule)
    return reply.code(204).send()
  })
}

export default protectedBranches
