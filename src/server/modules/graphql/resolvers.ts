import { GraphQLError } from 'graphql'
import { findProject, findProjectWithNamespace, type ProjectWithNamespaceRow } from '../../platform/db/platform-queries'
import type { UserRow } from '../../platform/db/rows'
import { findUserByUsername } from '../users'
import {
  createAlertTodo,
  findAlertByIid,
  findHttpIntegration,
  type AlertFieldMapping,
  type AlertStatusName,
  createHttpIntegration,
  destroyHttpIntegration,
  resetHttpIntegrationToken,
  setAlertAssignees,
  updateAlertStatus,
  updateHttpIntegration,
  type AlertUpdateResult,
  type AssigneeMode,
} from '../alerts'
import {
  canAdminOperations,
  canReadAlerts,
  presentAlert,
  presentIntegration,
  presentProject,
  presentTodo,
  presentUser,
} from './present'
import { parseGlobalId, unavailable, type GraphQLContext } from './support'

type Obj = Readonly<Record<string, unknown>>

interface MappingInput {
  readonly fieldName: AlertFieldMapping['fieldName']
  readonly path: readonly unknown[]
  readonly label?: string | null
  readonly type: AlertFieldMapping['type']
}

interface IntegrationFields {
  readonly clientMutationId?: string | null
  readonly name?: string | null
  readonly active?: boolean | null
  readonly payloadExample?: string | null
  readonly payloadAttributeMappings?: readonly MappingInput[] | null
}

/** Mutations need a signed-in caller whose token may write (scope `api`). */
function writer(g: GraphQLContext): UserRow {
  if (!g.user) throw unavailable()
  if (!g.actor.scopes.includes('api'))
    throw new GraphQLError('Insufficient scope: mutations need a token with the api scope')
  return g.user
}

/** The readable project at `fullPath`, or null (missing and hidden projects look the same). */
function readableProject(fullPath: unknown, g: GraphQLContext): ProjectWithNamespaceRow | null {
  if (typeof fullPath !== 'string' || !fullPath.includes('/')) return null
  const row = findProject(g.ctx.db, fullPath)
  if (!row || !g.perms.canReadProject(row)) return null
  return findProjectWithNamespace(g.ctx.db, row.id) ?? null
}

function mappings(input: readonly MappingInput[] | null | undefined): AlertFieldMapping[] | undefined {
  if (input === undefined || input === null) return undefined
  return input.map((m) => {
    if (
      m.path.length === 0 ||
      !m.path.every((p) => typeof p === 'string' || (typeof p === 'number' && Number.isInteger(p)))
    ) {
      throw new GraphQLError(
        'Payload attribute mapping paths must be non-empty lists of string keys and integer indexes',
      )
    }
    return { fieldName: m.fieldName, path: m.path as (string | number)[], type: m.type, label: m.label ?? null }
  })
}

function integrationInput(input: IntegrationFields): Parameters<typeof updateHttpIntegration>[3] {
  return {
    name: input.name ?? undefined,
    active: input.active ?? undefined,
    payloadExample: input.payloadExample ?? undefined,
    payloadAttributeMappings: mappings(input.payloadAttributeMappings),
  }
}

/** The integration a mutation names, in a project where the caller is a Maintainer. */
function maintainedIntegration(
  id: unknown,
  g: GraphQLContext,
): { integration: NonNullable<ReturnType<typeof findHttpIntegration>>; project: ProjectWithNamespaceRow } {
  writer(g)
  const numeric = parseGlobalId(id, 'AlertManagement::HttpIntegration')
  const integration = numeric === null ? undefined : findHttpIntegration(g.ctx.db, numeric)
  const project = integration ? findProjectWithNamespace(g.ctx.db, integration.project_id) : undefined
  if (!integration || !project || !canAdminOperations(project, g)) throw unavailable()
  return { integration, project }
}

/** The alert a mutation names, in a project where the caller may update alerts (Developer). */
function updatableAlert(
  input: { projectPath: string; iid: string },
  g: GraphQLContext,
): { alert: NonNullable<ReturnType<typeof findAlertByIid>>; project: ProjectWithNamespaceRow } {
  writer(g)
  const project = readableProject(input.projectPath, g)
  if (!project || !canReadAlerts(project, g) || !/^\d+$/.test(input.iid)) throw unavailable()
  const alert = findAlertByIid(g.ctx.db, project.id, Number(input.iid))
  if (!alert) throw unavailable()
  return { alert, project }
}

function alertPayload(
  result: AlertUpdateResult,
  project: ProjectWithNamespaceRow,
  clientMutationId: string | null | undefined,
  g: GraphQLContext,
): Obj {
  return {
    clientMutationId: clientMutationId ?? null,
    errors: result.errors,
    alert: presentAlert(result.alert, project, g),
    todo: result.todo && g.user ? presentTodo(result.todo, g.user, g) : null,
  }
}

/** The root value: Query and Mutation fields (graphql-js calls them with args and context). */
export const rootValue = {
  currentUser: (_args: unknown, g: GraphQLContext): Obj | null => (g.user ? presentUser(g.user, g) : null),

  project: (args: { fullPath: string }, g: GraphQLContext): Obj | null => {
    const project = readableProject(args.fullPath, g)
    return project ? presentProject(project, g) : null
  },

  httpIntegrationCreate: (
    args: { input: IntegrationFields & { projectPath: string; name: string; active: boolean } },
    g: GraphQLContext,
  ): Obj => {
    writer(g)
    const { input } = args
    const project = readableProject(input.projectPath, g)
    if (!project || !canAdminOperations(project, g)) throw unavailable()
    const result = createHttpIntegration(g, project, {
      ...integrationInput(input),
      name: input.name,
      active: input.active,
    })
    return {
      clientMutationId: input.clientMutationId ?? null,
      errors: result.errors,
      integration: result.integration ? presentIntegration(result.integration, project, g) : null,
    }
  },

  httpIntegrationUpdate: (args: { input: IntegrationFields & { id: string } }, g: GraphQLContext): Obj => {
    const { integration, project } = maintainedIntegration(args.input.id, g)
    const result = updateHttpIntegration(g, project, integration, integrationInput(args.input))
    return {
      clientMutationId: args.input.clientMutationId ?? null,
      errors: result.errors,
      integration: presentIntegration(result.integration ?? integration, project, g),
    }
  },

  httpIntegrationResetToken: (
    args: { input: { id: string; clientMutationId?: string | null } },
    g: GraphQLContext,
  ): Obj => {
    const { integration, project } = maintainedIntegration(args.input.id, g)
    const updated = resetHttpIntegrationToken(g, project, integration)
    return {
      clientMutationId: args.input.clientMutationId ?? null,
      errors: [],
      integration: presentIntegration(updated, project, g),
    }
  },

  httpIntegrationDestroy: (
    args: { input: { id: string; clientMutationId?: string | null } },
    g: GraphQLContext,
  ): Obj => {
    const { integration, project } = maintainedIntegration(args.input.id, g)
    // The presented object holds the row it was made from, so it can show what was deleted.
    const presented = presentIntegration(integration, project, g)
    destroyHttpIntegration(g, project, integration)
    return { clientMutationId: args.input.clientMutationId ?? null, errors: [], integration: presented }
  },

  alertSetAssignees: (
    args: {
      input: {
        projectPath: string
        iid: string
        assigneeUsernames: readonly string[]
        operationMode?: AssigneeMode | null
        clientMutationId?: string | null
      }
    },
    g: GraphQLContext,
  ): Obj => {
    const { alert, project } = updatableAlert(args.input, g)
    // Unknown usernames are left out, as GitLab's UsersFinder leaves them out.
    const users = args.input.assigneeUsernames
      .map((u) => findUserByUsername(g.ctx.db, u))
      .filter((u): u is UserRow => u !== undefined)
    const result = setAlertAssignees(g, project, alert, users, args.input.operationMode ?? 'REPLACE')
    return alertPayload(result, project, args.input.clientMutationId, g)
  },

  updateAlertStatus: (
    args: { input: { projectPath: string; iid: string; status: string; clientMutationId?: string | null } },
    g: GraphQLContext,
  ): Obj => {
    const { alert } = updatableAlert(args.input, g)
    const project = findProjectWithNamespace(g.ctx.db, alert.project_id) as ProjectWithNamespaceRow
    const result = updateAlertStatus(g, alert, args.input.status.toLowerCase() as AlertStatusName)
    return alertPayload(result, project, args.input.clientMutationId, g)
  },

  alertTodoCreate: (
    args: { input: { projectPath: string; iid: string; clientMutationId?: string | null } },
    g: GraphQLContext,
  ): Obj => {
    const { alert, project } = updatableAlert(args.input, g)
    const result = createAlertTodo(g, project, alert)
    return alertPayload(result, project, args.input.clientMutationId, g)
  },
}
