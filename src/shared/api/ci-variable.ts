/**
 * Project CI/CD variables and CI configuration lint results.
 */
import { Type, type Static } from 'typebox'
import { Entity, Nullable } from './common'

/** GitLab's Ci::Variable entity. */
export const CiVariable = Entity({
  variable_type: Type.Enum(['env_var', 'file']),
  key: Type.String(),
  value: Type.String(),
  hidden: Type.Boolean(),
  protected: Type.Boolean(),
  masked: Type.Boolean(),
  raw: Type.Boolean(),
  environment_scope: Type.String(),
  description: Nullable(Type.String()),
})
export type CiVariable = Static<typeof CiVariable>

/** A file the configuration includes. */
export const CiInclude = Entity({
  type: Type.Enum(['local', 'file', 'remote', 'template', 'component']),
  location: Type.String(),
  blob: Nullable(Type.String()),
  raw: Nullable(Type.String()),
  extra: Type.Record(Type.String(), Type.String()),
  context_project: Nullable(Type.String()),
  context_sha: Nullable(Type.String()),
})

/** `only`/`except` of a job. */
const RefPolicy = Entity({
  refs: Type.Optional(Type.Array(Type.String())),
  variables: Type.Optional(Type.Array(Type.String())),
  changes: Type.Optional(Type.Array(Type.String())),
})

/** A job of the linted configuration (`include_jobs=true`). */
export const CiLintJob = Entity({
  name: Type.String(),
  stage: Type.String(),
  before_script: Type.Array(Type.String()),
  script: Type.Array(Type.String()),
  after_script: Type.Array(Type.String()),
  tag_list: Type.Array(Type.String()),
  environment: Nullable(Type.String()),
  when: Type.String(),
  allow_failure: Type.Boolean(),
  only: Nullable(RefPolicy),
  except: Nullable(RefPolicy),
})
export type CiLintJob = Static<typeof CiLintJob>

const lintFields = {
  valid: Type.Boolean(),
  errors: Type.Array(Type.String()),
  warnings: Type.Array(Type.String()),
  includes: Type.Array(CiInclude),
  jobs: Type.Optional(Type.Array(CiLintJob)),
}

/** `POST /projects/:id/ci/lint`, `GET /projects/:id/ci/lint` (GitLab's Ci::Lint::Result). */
export const ProjectCiLint = Entity({ ...lintFields, merged_yaml: Nullable(Type.String()) })
export type ProjectCiLint = Static<typeof ProjectCiLint>

/** `POST /ci/lint`: the status too, and the expanded configuration only with `include_merged_yaml`. */
export const CiLint = Entity({
  status: Type.Enum(['valid', 'invalid']),
  ...lintFields,
  merged_yaml: Type.Optional(Nullable(Type.String())),
})
export type CiLint = Static<typeof CiLint>
