/**
 * Building blocks of the REST v4 wire model (spec "Resources and their fields", Conventions): the
 * schema helpers every resource family uses and the small shapes embedded in many of them
 * (time_stats, references, task_completion_status). Each family's file names its resources with
 * these; nothing here knows a resource.
 */
import { Type, type Static, type TObject, type TProperties, type TSchema, type TNull, type TUnion } from 'typebox'

/**
 * A resource object whose fields are all named: an unnamed field is an error when checked and is
 * dropped when Fastify serializes with the schema, so no field leaks that the model does not name.
 */
export function Entity<P extends TProperties>(
  properties: P,
  options: { readonly description?: string } = {},
): TObject<P> {
  return Type.Object(properties, { ...options, additionalProperties: false })
}

/** `X | null`: the spec's "null appears where a value is absent". */
export function Nullable<T extends TSchema>(schema: T): TUnion<[T, TNull]> {
  return Type.Union([schema, Type.Null()])
}

/** ISO 8601 date-time (the spec's `timestamp`). */
export const Timestamp = Type.String({ format: 'date-time' })

/** `YYYY-MM-DD` (the spec's `date`). */
export const IsoDate = Type.String({ format: 'date' })

/** An object whose keys the API does not fix (audit details, push data, quick-action changes). */
export const OpenObject = Type.Record(Type.String(), Type.Unknown())

/** A role as an integer: 0 none, 5 minimal, 10 guest, 15 planner, 20 reporter, 30 developer, 40 maintainer, 50 owner, 60 admin. */
export const AccessLevelValue = Type.Integer()

/** `private`, `internal` or `public`. */
export const Visibility = Type.Enum(['private', 'internal', 'public'])

/** `time_stats`: seconds estimated and spent, and their human forms (null when zero). */
export const TimeStats = Entity({
  time_estimate: Type.Integer(),
  total_time_spent: Type.Integer(),
  human_time_estimate: Nullable(Type.String()),
  human_total_time_spent: Nullable(Type.String()),
})
export type TimeStats = Static<typeof TimeStats>

/** `references`: `#5`, `#5` or `group/project#5` relative to where it was asked, and the full form. */
export const References = Entity({
  short: Type.String(),
  relative: Type.String(),
  full: Type.String(),
})

/** `task_completion_status`: checklist items of a description and how many are checked. */
export const TaskCompletionStatus = Entity({
  count: Type.Integer(),
  completed_count: Type.Integer(),
})

/** A label as `with_labels_details` shows it on issues, merge requests and epics (GitLab's LabelBasic). */
export const LabelBasic = Entity({
  id: Type.Integer(),
  name: Type.String(),
  color: Type.String(),
  description: Nullable(Type.String()),
  description_html: Nullable(Type.String()),
  text_color: Type.String(),
})
export type LabelBasic = Static<typeof LabelBasic>

/** Labels of an item: their names, or LabelBasic objects when `with_labels_details=true`. */
export const ItemLabels = Type.Union([Type.Array(Type.String()), Type.Array(LabelBasic)])

/** Storage counters of a group (`statistics=true`); projects add their commit count and registry size. */
export const StorageStatistics = Entity({
  storage_size: Type.Integer(),
  repository_size: Type.Integer(),
  wiki_size: Type.Integer(),
  lfs_objects_size: Type.Integer(),
  job_artifacts_size: Type.Integer(),
  pipeline_artifacts_size: Type.Integer(),
  packages_size: Type.Integer(),
  snippets_size: Type.Integer(),
  uploads_size: Type.Integer(),
})

/** `{message: "202 Accepted"}` of asynchronous actions (housekeeping, deletion, transfers). */
export const AcceptedMessage = Entity({ message: Type.String() })
