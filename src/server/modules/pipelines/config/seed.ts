import type { CiConfig, CiJob, CiRule, RefPolicy } from './config'
import { evaluateExpression } from './expressions'

/** What a pipeline is created for: rules, only and except are decided against this. */
export interface SeedContext {
  readonly ref: string
  readonly tag: boolean
  /** GitLab's pipeline sources: push, web, api, trigger, schedule, merge_request_event… */
  readonly source: string
  readonly projectPath: string
  /** Predefined, project and pipeline variables (job variables are added per job). */
  readonly variables: Readonly<Record<string, string>>
  /** Paths a push changed; null when unknown (new branches, API pipelines): `changes` then holds. */
  readonly changedPaths: readonly string[] | null
  /** Every file path of the commit, for `rules:exists`. */
  readonly repositoryPaths: readonly string[]
}

/** A job that will exist in the pipeline, with the `when` and `allow_failure` its rules decided. */
export interface JobSeed {
  readonly job: CiJob
  readonly stageIndex: number
  readonly when: string
  readonly allowFailure: boolean
  /** Variables a matching rule added. */
  readonly ruleVariables: Readonly<Record<string, string>>
}

/** Glob match as GitLab's `changes`/`exists` use it (File.fnmatch with PATHNAME and EXTGLOB). */
export function globMatch(pattern: string, path: string): boolean {
  const p = pattern.replace(/^\/+/, '')
  let re = ''
  for (let i = 0; i < p.length; i += 1) {
    const c = p[i]
    if (c === '*') {
      if (p[i + 1] === '*') {
        re += p[i + 2] === '/' ? '(?:.*/)?' : '.*'
        i += p[i + 2] === '/' ? 2 : 1
      } else re += '[^/]*'
    } else if (c === '?') re += '[^/]'
    else if (c === '{') {
      const end = p.indexOf('}', i)
      if (end < 0) re += '\\{'
      else {
        re += `(?:${p
          .slice(i + 1, end)
          .split(',')
          .map((x) => x.replace(/[.+^$()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*'))
          .join('|')})`
        i = end
      }
    } else re += c.replace(/[.+^$()|[\]\\]/g, '\\$&')
  }
  return new RegExp(`^${re}$`).test(path)
}

function anyMatch(
  patterns: readonly string[],
  paths: readonly string[],
  vars: Readonly<Record<string, string>>,
): boolean {
  return patterns.some((raw) => {
    const pattern = raw.replace(/\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?/g, (all, name: string) => vars[name] ?? all)
    return paths.some((path) => globMatch(pattern, path))
  })
}

function ruleMatches(rule: CiRule, ctx: SeedContext, vars: Readonly<Record<string, string>>): boolean {
  if (rule.if !== undefined && !evaluateExpression(rule.if, vars)) return false
  if (rule.changes !== undefined && ctx.changedPaths !== null && !anyMatch(rule.changes, ctx.changedPaths, vars))
    return false
  if (rule.exists !== undefined && !anyMatch(rule.exists, ctx.repositoryPaths, vars)) return false
  return true
}

/** The first matching rule, or null when none matches (the job or pipeline is then left out). */
export function matchingRule(
  rules: readonly CiRule[],
  ctx: SeedContext,
  vars: Readonly<Record<string, string>>,
): CiRule | null {
  return rules.find((r) => ruleMatches(r, ctx, vars)) ?? null
}

const SOURCE_KEYWORDS: Readonly<Record<string, string>> = {
  api: 'api',
  pushes: 'push',
  web: 'web',
  triggers: 'trigger',
  schedules: 'schedule',
  merge_requests: 'merge_request_event',
  external: 'external',
  pipelines: 'pipeline',
  chat: 'chat',
  external_pull_requests: 'external_pull_request_event',
}

/** One `only`/`except` refs entry: a keyword, a `/regex/`, or a ref name, optionally `@project/path`. */
function refMatches(entry: string, ctx: SeedContext): boolean {
  let pattern = entry
  const at = entry.lastIndexOf('@')
  if (at > 0 && !entry.startsWith('/')) {
    if (entry.slice(at + 1) !== ctx.projectPath) return false
    pattern = entry.slice(0, at)
  } else if (/^\/.*\/[a-z]*@/.test(entry)) {
    const split = entry.lastIndexOf('@')
    if (entry.slice(split + 1) !== ctx.projectPath) return false
    pattern = entry.slice(0, split)
  }
  if (pattern === 'branches') return !ctx.tag
  if (pattern === 'tags') return ctx.tag
  if (SOURCE_KEYWORDS[pattern]) return ctx.source === SOURCE_KEYWORDS[pattern]
  const re = /^\/(.*)\/([a-z]*)$/s.exec(pattern)
  if (re) {
    try {
      return new RegExp(re[1], re[2].replace(/[^im]/g, '')).test(ctx.ref)
    } catch {
      return false
    }
  }
  return pattern === ctx.ref
}

/** Whether a policy is satisfied: every sub-policy it sets (refs, variables, changes) must hold. */
function policySatisfied(policy: RefPolicy, ctx: SeedContext, vars: Readonly<Record<string, string>>): boolean {
  if (policy.refs !== undefined && !policy.refs.some((r) => refMatches(r, ctx))) return false
  if (policy.variables !== undefined && !policy.variables.some((v) => evaluateExpression(v, vars))) return false
  if (policy.changes !== undefined && ctx.changedPaths !== null && !anyMatch(policy.changes, ctx.changedPaths, vars))
    return false
  return true
}

/** `except` excludes when any sub-policy it sets holds. */
function exceptSatisfied(policy: RefPolicy, ctx: SeedContext, vars: Readonly<Record<string, string>>): boolean {
  if (policy.refs !== undefined && policy.refs.some((r) => refMatches(r, ctx))) return true
  if (policy.variables !== undefined && policy.variables.some((v) => evaluateExpression(v, vars))) return true
  if (policy.changes !== undefined && (ctx.changedPaths === null || anyMatch(policy.changes, ctx.changedPaths, vars)))
    return true
  return false
}

/** True when `workflow:rules` let the pipeline be created (no rules: always). */
export function workflowAllows(config: CiConfig, ctx: SeedContext): boolean {
  if (!config.workflowRules) return true
  const vars = { ...config.variables, ...ctx.variables }
  const rule = matchingRule(config.workflowRules, ctx, vars)
  return rule !== null && rule.when !== 'never'
}

/**
 * The jobs a pipeline gets, in stage then file order: rules decide inclusion, `when` and
 * `allow_failure`; without rules, `only` (default: branches and tags) and `except` decide.
 * Manual jobs without rules may fail by default, as in GitLab; with rules they block.
 * A job needing one that was left out is an error, unless the need is optional.
 */
export function seedJobs(config: CiConfig, ctx: SeedContext): { seeds: JobSeed[]; errors: string[] } {
  const seeds: JobSeed[] = []
  for (const job of config.jobs) {
    if (job.trigger) continue
    const vars = { ...job.variables, ...ctx.variables }
    let when = job.when
    let allowFailure = job.allow_failure ?? job.when === 'manual'
    let ruleVariables: Readonly<Record<string, string>> = {}
    if (job.rules) {
      const rule = matchingRule(job.rules, ctx, vars)
      if (!rule || rule.when === 'never') continue
      when = rule.when ?? job.when
      allowFailure = rule.allow_failure ?? job.allow_failure ?? false
      ruleVariables = rule.variables ?? {}
    } else {
      const only = job.only ?? { refs: ['branches', 'tags'] }
      if (!policySatisfied(only, ctx, vars)) continue
      if (job.except && exceptSatisfied(job.except, ctx, vars)) continue
    }
    seeds.push({ job, stageIndex: config.stages.indexOf(job.stage), when, allowFailure, ruleVariables })
  }
  const names = new Set(seeds.map((s) => s.job.name))
  const errors: string[] = []
  const out = seeds.map((s) => {
    if (!s.job.needs) return s
    for (const need of s.job.needs) {
      if (!names.has(need) && !s.job.optional_needs.includes(need)) {
        errors.push(
          `'${s.job.name}' job needs '${need}' job, but '${need}' does not exist in the pipeline. This might be because of the only, except, or rules keywords. To need a job that sometimes does not exist in the pipeline, use needs:optional.`,
        )
      }
    }
    return { ...s, job: { ...s.job, needs: s.job.needs.filter((n) => names.has(n)) } }
  })
  return { seeds: out.sort((a, b) => a.stageIndex - b.stageIndex), errors }
}
