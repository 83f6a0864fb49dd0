import { Type, type Static } from 'typebox'
import { paramError } from '../../platform/http/errors'
import { listOf } from '../../platform/http/loose-params'
import type { RunnerInfo } from './queries'
import type { RunnerAttributes } from './service'

// Request schemas and parsing the two runner route plugins share: the Runners API users call
// (routes.ts) and the API runners themselves call (runner-api-routes.ts).

/** A union of string literals, for enumerated parameters. */
export const Literals = <T extends readonly string[]>(values: T) => Type.Union(values.map((v) => Type.Literal(v)))

const TagList = Type.Union([Type.Array(Type.String()), Type.String()])
/** `maintenance_note` (and its old name `maintainer_note`). */
export const MaintenanceNote = Type.Optional(Type.String({ maxLength: 1024 }))
/** `access_level` of a runner. */
export const AccessLevelParam = Type.Optional(Literals(['not_protected', 'ref_protected'] as const))
/** `tag_list`: an array or comma-separated text. */
export const TagListParam = Type.Optional(TagList)

/** What a new runner is told to be, in `POST /user/runners` and the runner API's `POST /runners`. */
export const NewRunnerParams = {
  description: Type.Optional(Type.String()),
  maintenance_note: MaintenanceNote,
  // GitLab's old name for maintenance_note.
  maintainer_note: MaintenanceNote,
  active: Type.Optional(Type.Boolean()),
  paused: Type.Optional(Type.Boolean()),
  locked: Type.Optional(Type.Boolean()),
  access_level: AccessLevelParam,
  run_untagged: Type.Optional(Type.Boolean()),
  tag_list: TagListParam,
  maximum_timeout: Type.Optional(Type.Integer()),
}
type NewRunnerBody = Static<Type.TObject<typeof NewRunnerParams>>

/** `tag_list` as an array or comma-separated text (Grape's CommaSeparatedToArray); undefined when not given. */
export function tagListOf(raw: string | readonly string[] | undefined): string[] | undefined {
  return raw === undefined ? undefined : listOf('tag_list', raw)
}

/** A new runner's attributes from its parameters; `paused` and the deprecated `active` may not come together. */
export function newRunnerAttributes(b: NewRunnerBody): RunnerAttributes {
  if (b.active !== undefined && b.paused !== undefined) throw paramError('active, paused are mutually exclusive')
  return {
    description: b.description,
    maintenanceNote: b.maintenance_note ?? b.maintainer_note,
    active: b.paused !== undefined ? !b.paused : b.active,
    locked: b.locked,
    runUntagged: b.run_untagged,
    tagList: tagListOf(b.tag_list),
    accessLevel: b.access_level,
    maximumTimeout: b.maximum_timeout,
  }
}

/** The `info` a runner reports about itself (name, version, platform…); other keys are kept out. */
export const RunnerInfoParam = Type.Optional(
  Type.Object(
    {
      name: Type.Optional(Type.String()),
      version: Type.Optional(Type.String()),
      revision: Type.Optional(Type.String()),
      platform: Type.Optional(Type.String()),
      architecture: Type.Optional(Type.String()),
      executor: Type.Optional(Type.String()),
    },
    { additionalProperties: true },
  ),
)

/** What a runner reports about itself, with the address it called from. */
export function runnerInfo(ip: string, info: Readonly<Record<string, unknown>> | undefined): RunnerInfo {
  const text = (k: string): string | undefined => (typeof info?.[k] === 'string' ? (info[k] as string) : undefined)
  return {
    name: text('name'),
    version: text('version'),
    revision: text('revision'),
    platform: text('platform'),
    architecture: text('architecture'),
    executor: text('executor'),
    ip_address: ip,
  }
}
