import type { CiLintJob } from '../../../shared/api/ci-variable'
import type { Caller } from '../../platform/caller'
import type { ProjectRow } from '../../platform/db/rows'
import { readCommit } from '../../platform/git/commits'
import { projectGitDir, repoExists } from '../../platform/git/project-repo'
import { resolveCommit } from '../../platform/git/refs'
import {
  type IncludeRecord,
  includeSource,
  isProtectedRef,
  loadCiConfig,
  planPipeline,
  predefinedVariables,
  projectVariablesFor,
} from '../pipelines'
import { lintJobEntity } from './entity'

/** GitLab's Ci::Lint::Result as the API presents it. */
export interface LintResult {
  readonly valid: boolean
  readonly errors: readonly string[]
  readonly warnings: readonly string[]
  readonly merged_yaml: string | null
  readonly includes: readonly IncludeRecord[]
  readonly jobs: readonly CiLintJob[]
}

/**
 * Statically validates CI configuration `content` (GitLab's Ci::Lint static validation): in a
 * project, `include: local` reads the project's files at `sha` and include rules see the
 * project's variables; without one (`POST /ci/lint`) local includes are errors.
 */
export async function lintStatic(
  caller: Caller,
  content: string,
  at: { readonly project: ProjectRow; readonly sha: string; readonly ref: string } | null,
): Promise<LintResult> {
  const ctx = caller.ctx
  const baseUrl = caller.baseUrl
  let variables: Record<string, string> = {}
  if (at) {
    const commit = await readCommit(projectGitDir(ctx, at.project), at.sha)
    const protectedRef = isProtectedRef(ctx, at.project, at.ref, false)
    variables = predefinedVariables(
      ctx,
      {
        project: at.project,
        ref: at.ref,
        tag: false,
        sha: at.sha,
        beforeSha: commit.parentIds[0] ?? at.sha,
        source: 'push',
        protected: protectedRef,
        user: caller.user,
        commit,
      },
      baseUrl,
    )
    for (const v of projectVariablesFor(ctx, at.project.id, protectedRef, null)) variables[v.key] = v.value
  }
  const loaded = await loadCiConfig(content, includeSource(ctx, at, caller.user, variables, baseUrl))
  return {
    valid: loaded.errors.length === 0,
    errors: loaded.errors,
    warnings: loaded.warnings,
    merged_yaml: loaded.mergedYaml,
    includes: loaded.includes,
    jobs: loaded.config
      ? loaded.config.jobs.map((j) => lintJobEntity(j, j.when, j.allow_failure ?? j.when === 'manual'))
      : [],
  }
}

/**
 * Simulates creating a pipeline for `ref` with `content` as its configuration (GitLab's dry run):
 * rules are applied, and a configuration that yields no jobs is an error, as pipeline creation
 * would report it.
 */
export async function lintDryRun(
  caller: Caller,
  project: ProjectRow,
  content: string,
  ref: string,
): Promise<LintResult> {
  const ctx = caller.ctx
  const gitDir = projectGitDir(ctx, project)
  const isTag = repoExists(gitDir) && (await resolveCommit(gitDir, `refs/tags/${ref}`).catch(() => null)) !== null
  const sha = repoExists(gitDir)
    ? await resolveCommit(gitDir, isTag ? `refs/tags/${ref}` : `refs/heads/${ref}`).catch(() => null)
    : null
  const staticResult = await lintStatic(caller, content, sha ? { project, sha, ref } : null)
  if (!staticResult.valid) return staticResult
  if (!sha) return { ...staticResult, valid: false, errors: ['Reference not found'], jobs: [] }
  const { plan } = await planPipeline(
    ctx,
    {
      project,
      ref,
      tag: isTag,
      sha,
      source: 'push',
      user: caller.user,
      honourSkipCi: false,
      saveOnErrors: false,
      baseUrl: caller.baseUrl,
    },
    content,
  )
  if (plan.kind === 'jobs') {
    return {
      ...staticResult,
      warnings: plan.warnings,
      jobs: plan.seeds.map((s) => lintJobEntity(s.job, s.when, s.allowFailure)),
    }
  }
  const errors = plan.kind === 'skipped' ? [] : plan.errors
  return { ...staticResult, valid: errors.length === 0, errors, jobs: [] }
}
