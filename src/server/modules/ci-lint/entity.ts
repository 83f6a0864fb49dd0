import type { CiLint, CiLintJob, ProjectCiLint } from '../../../shared/api/ci-variable'
import type { CiJob, RefPolicy } from '../pipelines'
import type { LintResult } from './service'

type RefPolicyEntity = NonNullable<CiLintJob['only']>

/** `only`/`except` of a job as written. */
function refPolicyEntity(policy: RefPolicy): RefPolicyEntity {
  return {
    ...(policy.refs && { refs: [...policy.refs] }),
    ...(policy.variables && { variables: [...policy.variables] }),
    ...(policy.changes && { changes: [...policy.changes] }),
  }
}

/** A job of the linted configuration (`include_jobs=true`), with the `when` and `allow_failure` it resolved to. */
export function lintJobEntity(job: CiJob, when: string, allowFailure: boolean): CiLintJob {
  return {
    name: job.name,
    stage: job.stage,
    before_script: [...job.before_script],
    script: [...job.script],
    after_script: [...job.after_script],
    tag_list: [...job.tags],
    environment: job.environment?.name ?? null,
    when,
    allow_failure: allowFailure,
    // GitLab shows the implicit `only: [branches, tags]` of a job without rules.
    only: job.rules ? null : refPolicyEntity(job.only ?? { refs: ['branches', 'tags'] }),
    except: job.except && refPolicyEntity(job.except),
  }
}

/** GitLab's Ci::Lint::Result entity, the project endpoints' answer; `jobs` only with `include_jobs`. */
export function projectLintEntity(r: LintResult, includeJobs: boolean | undefined): ProjectCiLint {
  return {
    valid: r.valid,
    errors: [...r.errors],
    warnings: [...r.warnings],
    merged_yaml: r.merged_yaml,
    includes: [...r.includes],
    ...(includeJobs ? { jobs: [...r.jobs] } : {}),
  }
}

/** `POST /ci/lint`'s answer: the status too, and the expanded configuration only with `include_merged_yaml`. */
export function lintEntity(
  r: LintResult,
  includeJobs: boolean | undefined,
  includeMergedYaml: boolean | undefined,
): CiLint {
  const { merged_yaml: mergedYaml, ...result } = projectLintEntity(r, includeJobs)
  return {
    status: r.valid ? 'valid' : 'invalid',
    ...result,
    ...(includeMergedYaml ? { merged_yaml: mergedYaml } : {}),
  }
}
