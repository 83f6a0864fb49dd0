import { AccessLevel } from '../../platform/auth/access'
import { Permissions } from '../../platform/auth/permissions'
import type { ServerContext } from '../../platform/context'
import { projectVariables, type VariableView } from '../ci-variables'
import { inheritedGroupVariables } from '../group-variables'
import { findProject } from '../namespaces'
import type { JobRow, PipelineRow } from './queries'
import { findProjectWithNamespace, type ProjectWithNamespaceRow } from '../projects'
import type { ProjectRow, UserRow } from '../../platform/db/rows'
import type { RunnerRow } from '../runners'
import { projectSettings } from '../projects'
import type { IncludeSource, ProjectFiles } from './config/config'
import { readBlobAt } from '../../platform/git/file-at'
import { projectGitDir, repoExists } from '../../platform/git/project-repo'
import { resolveCommit } from '../../platform/git/refs'
import type { GitCommit } from '../../platform/git/commits'
import { BURROW_VERSION } from '../version'
import { listProtectedBranches, rulesFor } from '../branches'

/** The CI configuration file of a project: its `ci_config_path` setting, else `.gitlab-ci.yml`. */
export function ciConfigPath(project: ProjectRow): string {
  const configured = projectSettings(project.settings).ci_config_path
  return typeof configured === 'string' && configured !== '' ? configured : '.gitlab-ci.yml'
}

/** `group/project` of a project. */
export function projectFullPath(ctx: ServerContext, project: ProjectRow): string {
  const p = findProjectWithNamespace(ctx.db, project.id) as ProjectWithNamespaceRow
  return `${p.ns_full_path}/${p.path}`
}

/** GitLab's CI_COMMIT_REF_SLUG rule: lowercase, anything but a-z0-9 becomes `-`, at most 63 characters. */
export function ciSlug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '-')
    .slice(0, 63)
    .replace(/^-+|-+$/g, '')
}

/** True when the branch has a protected-branch rule (tags are never protected here). */
export function isProtectedRef(ctx: ServerContext, project: ProjectRow, ref: string, tag: boolean): boolean {
  if (tag) return false
  return rulesFor(listProtectedBranches(ctx.db, project.id), ref).length > 0
}

/** The project's files at one commit, for `include: local`. */
export function projectFilesAt(ctx: ServerContext, project: ProjectRow, sha: string, baseUrl: string): ProjectFiles {
  const gitDir = projectGitDir(ctx, project)
  const path = projectFullPath(ctx, project)
  return {
    projectPath: path,
    sha,
    webUrl: `${baseUrl}/${path}`,
    async read(file: string): Promise<string | null> {
      try {
        const blob = await readBlobAt(gitDir, sha, file)
        return blob ? blob.content.toString('utf8') : null
      } catch {
        return null
      }
    },
  }
}

/**
 * Where `include` reads from: the project at the commit, and other projects of this instance the
 * user may read code of (Reporter on private projects), at a ref or their default branch.
 */
export function includeSource(
  ctx: ServerContext,
  at: { readonly project: ProjectRow; readonly sha: string } | null,
  user: UserRow | null,
  variables: Readonly<Record<string, string>>,
  baseUrl: string,
): IncludeSource {
  const perms = new Permissions(ctx.db, user)
  return {
    local: at ? projectFilesAt(ctx, at.project, at.sha, baseUrl) : null,
    variables,
    async readProject(projectPath: string, ref: string | undefined): Promise<ProjectFiles | string> {
      const denied = `Project \`${projectPath}\` not found or access denied! Make sure any includes in the pipeline configuration are correctly defined.`
      const other = findProject(ctx.db, projectPath)
      if (!other || !perms.canReadProject(other)) return denied
      if (other.visibility === 'private' && !perms.canInProject(other, AccessLevel.REPORTER)) return denied
      const gitDir = projectGitDir(ctx, other)
      const wanted = ref ?? other.default_branch ?? 'HEAD'
      const commit = repoExists(gitDir) ? await resolveCommit(gitDir, wanted).catch(() => null) : null
      if (!commit) return `Project \`${projectPath}\` reference \`${wanted}\` does not exist!`
      return projectFilesAt(ctx, other, commit, baseUrl)
    },
  }
}

/** What predefined variables are computed from. */
export interface PredefinedInput {
  readonly project: ProjectRow
  readonly ref: string
  readonly tag: boolean
  readonly sha: string
  readonly beforeSha: string
  readonly source: string
  readonly protected: boolean
  readonly user: UserRow | null
  readonly commit: GitCommit
}

/** GitLab's predefined variables known before a pipeline exists (what rules and includes see). */
export function predefinedVariables(ctx: ServerContext, i: PredefinedInput, base: string): Record<string, string> {
  const p = findProjectWithNamespace(ctx.db, i.project.id) as ProjectWithNamespaceRow
  const url = new URL(base)
  const path = `${p.ns_full_path}/${p.path}`
  const vars: Record<string, string> = {
    CI: 'true',
    GITLAB_CI: 'true',
    CI_SERVER: 'yes',
    CI_SERVER_URL: base,
    CI_SERVER_HOST: url.hostname,
    CI_SERVER_PORT: url.port || (url.protocol === 'https:' ? '443' : '80'),
    CI_SERVER_PROTOCOL: url.protocol.replace(':', ''),
    CI_SERVER_NAME: 'GitLab',
    CI_SERVER_VERSION: BURROW_VERSION,
    CI_API_V4_URL: `${base}/api/v4`,
    CI_PROJECT_ID: String(p.id),
    CI_PROJECT_NAME: p.path,
    CI_PROJECT_TITLE: p.name,
    CI_PROJECT_PATH: path,
    CI_PROJECT_PATH_SLUG: ciSlug(path),
    CI_PROJECT_NAMESPACE: p.ns_full_path,
    CI_PROJECT_NAMESPACE_ID: String(p.namespace_id),
    CI_PROJECT_ROOT_NAMESPACE: p.ns_full_path.split('/')[0],
    CI_PROJECT_URL: `${base}/${path}`,
    CI_PROJECT_VISIBILITY: p.visibility,
    CI_DEFAULT_BRANCH: p.default_branch ?? '',
    CI_CONFIG_PATH: ciConfigPath(i.project),
    CI_PIPELINE_SOURCE: i.source,
    CI_COMMIT_SHA: i.sha,
    CI_COMMIT_SHORT_SHA: i.sha.slice(0, 8),
    CI_COMMIT_BEFORE_SHA: i.beforeSha,
    CI_COMMIT_REF_NAME: i.ref,
    CI_COMMIT_REF_SLUG: ciSlug(i.ref),
    CI_COMMIT_REF_PROTECTED: String(i.protected),
    CI_COMMIT_MESSAGE: i.commit.message,
    CI_COMMIT_TITLE: i.commit.title,
    CI_COMMIT_DESCRIPTION: i.commit.message.split('\n').slice(1).join('\n').replace(/^\n+/, ''),
    CI_COMMIT_AUTHOR: `${i.commit.authorName} <${i.commit.authorEmail}>`,
    CI_COMMIT_TIMESTAMP: i.commit.committedDate,
  }
  if (i.tag) {
    vars.CI_COMMIT_TAG = i.ref
    vars.CI_COMMIT_TAG_MESSAGE = ''
  } else vars.CI_COMMIT_BRANCH = i.ref
  if (i.user) {
    vars.GITLAB_USER_ID = String(i.user.id)
    vars.GITLAB_USER_LOGIN = i.user.username
    vars.GITLAB_USER_EMAIL = i.user.email
    vars.GITLAB_USER_NAME = i.user.name
  }
  return vars
}

/** Variables that exist once the pipeline row does. */
export function pipelineVariables(pipeline: PipelineRow, projectPath: string, baseUrl: string): Record<string, string> {
  return {
    CI_PIPELINE_ID: String(pipeline.id),
    CI_PIPELINE_IID: String(pipeline.iid),
    CI_PIPELINE_URL: `${baseUrl}/${projectPath}/-/pipelines/${pipeline.id}`,
    CI_PIPELINE_CREATED_AT: pipeline.created_at,
  }
}

/** Variables of one job as its runner sees them. */
export function jobVariables(
  job: JobRow,
  projectPath: string,
  runner: RunnerRow | null,
  jobToken: string | null,
  base: string,
): Record<string, string> {
  const url = new URL(base)
  const vars: Record<string, string> = {
    CI_JOB_ID: String(job.id),
    CI_JOB_NAME: job.name,
    CI_JOB_NAME_SLUG: ciSlug(job.name),
    CI_JOB_STAGE: job.stage,
    CI_JOB_URL: `${base}/${projectPath}/-/jobs/${job.id}`,
    CI_JOB_STARTED_AT: job.started_at ?? '',
    CI_JOB_MANUAL: String(job.when === 'manual'),
  }
  if (jobToken) {
    vars.CI_JOB_TOKEN = jobToken
    vars.CI_BUILD_TOKEN = jobToken
    url.username = 'gitlab-ci-token'
    url.password = jobToken
    vars.CI_REPOSITORY_URL = `${url.toString().replace(/\/$/, '')}/${projectPath}.git`
  }
  if (runner) {
    vars.CI_RUNNER_ID = String(runner.id)
    vars.CI_RUNNER_DESCRIPTION = runner.description
    vars.CI_RUNNER_TAGS = runner.tag_list
  }
  return vars
}

function scopeMatches(scope: string, environment: string | null): boolean {
  if (scope === '*') return true
  if (environment === null) return false
  if (!scope.includes('*')) return scope === environment
  const re = new RegExp(
    `^${scope
      .split('*')
      .map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
  )
  return re.test(environment)
}

/**
 * The CI/CD variables a project's pipeline or job gets: its groups' (the top-level group's first,
 * a nearer group's replacing them) and then its own, which replace any group's of the same key.
 * Within each, protected ones only on protected refs, environment-scoped ones only for a matching
 * environment (the most specific scope wins).
 */
export function projectVariablesFor(
  ctx: ServerContext,
  projectId: number,
  protectedRef: boolean,
  environment: string | null,
): VariableView[] {
  const chosen = new Map<string, VariableView>()
  const byGroup = new Map<number, VariableView[]>()
  for (const v of inheritedGroupVariables(ctx.db, ctx.secrets, projectId))
    byGroup.set(v.group_id, [...(byGroup.get(v.group_id) ?? []), v])
  // A Map keeps insertion order: the groups from the top-level one down, then the project.
  for (const layer of [...byGroup.values(), projectVariables(ctx.db, ctx.secrets, projectId)])
    for (const v of applicableVariables(layer, protectedRef, environment)) chosen.set(v.key, v)
  return [...chosen.values()]
}

/** One owner's variables that apply: one a key, the most specific matching scope. */
function applicableVariables(
  variables: readonly VariableView[],
  protectedRef: boolean,
  environment: string | null,
): VariableView[] {
  const chosen = new Map<string, VariableView>()
  for (const v of variables) {
    if (v.protected === 1 && !protectedRef) continue
    if (!scopeMatches(v.environment_scope, environment)) continue
    const prev = chosen.get(v.key)
    if (!prev || prev.environment_scope === '*') chosen.set(v.key, v)
  }
  return [...chosen.values()]
}
