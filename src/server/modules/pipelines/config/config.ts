import { parseCiDuration } from './duration'
import { evaluateExpression, isValidExpression } from './expressions'
import { dumpCiYaml, parseCiYaml, ReferenceTag } from './yaml'

/**
 * `.gitlab-ci.yml` processing, after GitLab's Gitlab::Ci::Config and YamlProcessor: YAML parsing,
 * `include` (local files from the repository, files of other projects of this instance),
 * `!reference`, `extends`, validation of every keyword with GitLab's error texts, `default:`
 * inheritance, `parallel` expansion, and the logical checks (stages, needs, dependencies).
 */

type Hash = Record<string, unknown>

/** Where `include` finds files: the project being linted or built, and other projects of the instance. */
export interface IncludeSource {
  /** The project whose files `include: local` reads, at one commit; null when there is no project (`POST /ci/lint`). */
  readonly local: ProjectFiles | null
  /** Reads `file` of another project at `ref` (its default branch when absent), if the caller may read it. */
  readProject?(projectPath: string, ref: string | undefined): Promise<ProjectFiles | string>
  /** Variables usable in include paths and `include:rules` (predefined and project variables). */
  readonly variables: Readonly<Record<string, string>>
}

/** One project's files at one commit. */
export interface ProjectFiles {
  readonly projectPath: string
  readonly sha: string
  readonly webUrl: string
  read(path: string): Promise<string | null>
}

/** One resolved include, as the lint result's `includes` lists them. */
export interface IncludeRecord {
  readonly type: 'local' | 'file' | 'remote' | 'template' | 'component'
  readonly location: string
  readonly blob: string | null
  readonly raw: string | null
  readonly extra: Readonly<Record<string, string>>
  readonly context_project: string | null
  readonly context_sha: string | null
}

/** A `rules:` entry. */
export interface CiRule {
  readonly if?: string
  readonly changes?: readonly string[]
  readonly exists?: readonly string[]
  readonly when?: string
  readonly allow_failure?: boolean
  readonly variables?: Readonly<Record<string, string>>
}

/** `only:` / `except:` in their hash form. */
export interface RefPolicy {
  readonly refs?: readonly string[]
  readonly variables?: readonly string[]
  readonly changes?: readonly string[]
}

export interface CiEnvironment {
  readonly name: string
  readonly url?: string
  readonly action: string
  readonly on_stop?: string
  readonly deployment_tier?: string
  readonly auto_stop_in?: string
}

export interface CiArtifacts {
  readonly name?: string
  readonly paths: readonly string[]
  readonly exclude: readonly string[]
  readonly untracked: boolean
  readonly when: string
  readonly expire_in?: string
  /** `reports:` file type → paths (`sast: gl-sast-report.json`). */
  readonly reports: Readonly<Record<string, readonly string[]>>
}

/** A visible job after extends, defaults and parallel expansion. */
export interface CiJob {
  readonly name: string
  readonly stage: string
  readonly script: readonly string[]
  readonly before_script: readonly string[]
  readonly after_script: readonly string[]
  readonly image: { readonly name: string; readonly entrypoint?: readonly string[] } | null
  readonly services: readonly {
    readonly name: string
    readonly alias?: string
    readonly entrypoint?: readonly string[]
    readonly command?: readonly string[]
  }[]
  readonly tags: readonly string[]
  readonly when: string
  /** As written; null when absent (the default depends on `when` and rules). */
  readonly allow_failure: boolean | null
  readonly needs: readonly string[] | null
  /** Needs marked `optional: true`: dropped when rules leave that job out. */
  readonly optional_needs: readonly string[]
  readonly dependencies: readonly string[] | null
  readonly environment: CiEnvironment | null
  readonly artifacts: CiArtifacts | null
  /** Job-level `variables:` merged over the global ones. */
  readonly variables: Readonly<Record<string, string>>
  readonly rules: readonly CiRule[] | null
  readonly only: RefPolicy | null
  readonly except: RefPolicy | null
  readonly timeout: number | null
  readonly coverage: string | null
  readonly retry: number
  readonly interruptible: boolean
  readonly resource_group: string | null
  /** Trigger (bridge) jobs start downstream pipelines, which Burrow does not run. */
  readonly trigger: boolean
  readonly start_in: string | null
}

export interface CiConfig {
  /** `.pre`, the declared stages (build, test, deploy by default), `.post`. */
  readonly stages: readonly string[]
  readonly variables: Readonly<Record<string, string>>
  readonly workflowRules: readonly CiRule[] | null
  readonly jobs: readonly CiJob[]
}

export interface LoadedConfig {
  readonly errors: readonly string[]
  readonly warnings: readonly string[]
  /** Null when there are errors. */
  readonly config: CiConfig | null
  /** The configuration with anchors and non-local includes expanded, local includes and extends kept as written. */
  readonly mergedYaml: string | null
  readonly includes: readonly IncludeRecord[]
}

const GLOBAL_KEYS = new Set([
  'image',
  'services',
  'stages',
  'types',
  'before_script',
  'after_script',
  'variables',
  'cache',
  'include',
  'default',
  'workflow',
  'spec',
])
// Top-level keys that are never a job: the global keywords, and `pages:deploy`.
const RESERVED = new Set([...GLOBAL_KEYS, 'pages:deploy'])
const DEFAULT_KEYS = [
  'after_script',
  'artifacts',
  'before_script',
  'cache',
  'hooks',
  'id_tokens',
  'image',
  'interruptible',
  'retry',
  'services',
  'tags',
  'timeout',
]
const JOB_KEYS = new Set([
  'after_script',
  'allow_failure',
  'artifacts',
  'before_script',
  'cache',
  'coverage',
  'dast_configuration',
  'dependencies',
  'environment',
  'except',
  'extends',
  'hooks',
  'id_tokens',
  'identity',
  'image',
  'inherit',
  'interruptible',
  'manual_confirmation',
  'needs',
  'only',
  'pages',
  'parallel',
  'publish',
  'release',
  'resource_group',
  'retry',
  'rules',
  'run',
  'script',
  'secrets',
  'services',
  'stage',
  'start_in',
  'tags',
  'timeout',
  'trigger',
  'type',
  'variables',
  'when',
])
const WHEN = ['on_success', 'on_failure', 'always', 'manual', 'delayed']
const RULE_WHEN = ['on_success', 'on_failure', 'always', 'manual', 'delayed', 'never']
const RULE_KEYS = new Set([
  'if',
  'changes',
  'exists',
  'when',
  'allow_failure',
  'variables',
  'needs',
  'start_in',
  'interruptible',
])
const POLICY_KEYS = new Set(['refs', 'variables', 'changes', 'kubernetes'])
const ARTIFACT_KEYS = new Set([
  'name',
  'untracked',
  'paths',
  'exclude',
  'when',
  'expire_in',
  'expose_as',
  'reports',
  'public',
  'access',
])
const ENVIRONMENT_KEYS = new Set(['name', 'url', 'action', 'on_stop', 'auto_stop_in', 'kubernetes', 'deployment_tier'])
const ENVIRONMENT_ACTIONS = ['start', 'prepare', 'stop', 'verify', 'access']
const DEPLOYMENT_TIERS = ['production', 'staging', 'testing', 'development', 'other']
const WORKFLOW_KEYS = new Set(['rules', 'name', 'auto_cancel'])
const INCLUDE_KEYS = new Set([
  'local',
  'project',
  'file',
  'ref',
  'remote',
  'template',
  'component',
  'rules',
  'inputs',
  'cache',
  'integrity',
])
const MAX_INCLUDES = 150
const MAX_EXTENDS_DEPTH = 11
const MAX_PARALLEL = 200
const DEFAULT_STAGES = ['build', 'test', 'deploy']

function isHash(v: unknown): v is Hash {
  return v !== null && typeof v === 'object' && !Array.isArray(v) && !(v instanceof ReferenceTag)
}

function isStringArray(v: unknown): v is string[] {
  return Array.isArray(v) && v.every((x) => typeof x === 'string')
}

/** GitLab's deep_merge: hashes merge key by key, anything else is replaced by the later value. */
function deepMerge(base: Hash, over: Hash): Hash {
  const out: Hash = { ...base }
  for (const [k, v] of Object.entries(over)) {
    const prev = out[k]
    out[k] = isHash(prev) && isHash(v) ? deepMerge(prev, v) : v
  }
  return out
}

function expandVariables(text: string, vars: Readonly<Record<string, string>>): string {
  return text.replace(
    /\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)/g,
    (all, a: string | undefined, b: string | undefined) => {
      const name = a ?? b ?? ''
      return Object.prototype.hasOwnProperty.call(vars, name) ? vars[name] : all
    },
  )
}

/** A configuration error that stops processing (includes, references, extends), as GitLab raises them. */
class ConfigError extends Error {}

// ---- include ----------------------------------------------------------------------------------

interface IncludeState {
  count: number
  readonly seen: Set<string>
  readonly records: IncludeRecord[]
  readonly cache: Map<string, string | null>
}

function includeEntries(value: unknown): unknown[] {
  if (value === undefined || value === null) return []
  return Array.isArray(value) ? value : [value]
}

function describeInclude(entry: unknown): string {
  return JSON.stringify(entry)
    .replace(/"([^"]+)":/g, '$1: ')
    .replace(/"/g, '')
}

async function readCached(
  state: IncludeState,
  key: string,
  read: () => Promise<string | null>,
): Promise<string | null> {
  if (state.cache.has(key)) return state.cache.get(key) ?? null
  const content = await read()
  state.cache.set(key, content)
  return content
}

function parseIncluded(location: string, content: string | null, missing: string): Hash {
  if (content === null) throw new ConfigError(missing)
  if (content.trim() === '') throw new ConfigError(`Included file \`${location}\` is empty or does not exist!`)
  const parsed = parseCiYaml(content)
  if (!parsed.ok || !isHash(parsed.value))
    throw new ConfigError(`Included file \`${location}\` does not have valid YAML syntax!`)
  return parsed.value
}

function includeMatches(entry: Hash, vars: Readonly<Record<string, string>>): boolean {
  const rules = entry.rules
  if (!Array.isArray(rules)) return true
  for (const rule of rules) {
    if (!isHash(rule)) continue
    const ok = typeof rule.if !== 'string' || evaluateExpression(rule.if, vars)
    if (ok) return rule.when !== 'never'
  }
  return false
}

/**
 * Expands `include` of `root` (recursively), merging included files under the including one.
 * `skipLocal` keeps local entries in place instead (merged_yaml does not expand them).
 */
async function expandIncludes(
  root: Hash,
  context: ProjectFiles | null,
  source: IncludeSource,
  state: IncludeState,
  skipLocal: boolean,
  depth: number,
): Promise<Hash> {
  const entries = includeEntries(root.include)
  const { include: _drop, ...rest } = root
  let merged: Hash = {}
  const kept: unknown[] = []
  if (depth > 100) throw new ConfigError('Maximum of 100 nested includes are allowed!')
  for (const raw of entries) {
    let entry: Hash
    if (typeof raw === 'string') entry = /^https?:\/\//.test(raw) ? { remote: raw } : { local: raw }
    else if (isHash(raw)) entry = raw
    else throw new ConfigError(`Include \`${describeInclude(raw)}\` needs to match exactly one accessor!`)
    const accessors = ['local', 'project', 'remote', 'template', 'component'].filter((k) => entry[k] !== undefined)
    const unknown = Object.keys(entry).filter((k) => !INCLUDE_KEYS.has(k))
    if (accessors.length !== 1 || unknown.length > 0)
      throw new ConfigError(`Include \`${describeInclude(raw)}\` needs to match exactly one accessor!`)
    if (!includeMatches(entry, source.variables)) continue
    if (skipLocal && entry.local !== undefined) {
      kept.push(raw)
      continue
    }
    const files: {
      location: string
      project: ProjectFiles | null
      type: IncludeRecord['type']
      extra: Record<string, string>
    }[] = []
    if (entry.local !== undefined) {
      const location = expandVariables(String(entry.local), source.variables).replace(/^\/+/, '')
      if (!context) throw new ConfigError(`Local file \`${location}\` does not have project!`)
      files.push({ location, project: context, type: 'local', extra: {} })
    } else if (entry.project !== undefined) {
      const projectPath = expandVariables(String(entry.project), source.variables)
      const ref = entry.ref === undefined ? undefined : expandVariables(String(entry.ref), source.variables)
      const list = Array.isArray(entry.file) ? entry.file : entry.file === undefined ? [] : [entry.file]
      if (list.length === 0)
        throw new ConfigError(`Include \`${describeInclude(raw)}\` needs to match exactly one accessor!`)
      const project = source.readProject
        ? await source.readProject(projectPath, ref)
        : `Project \`${projectPath}\` not found or access denied! Make sure any includes in the pipeline configuration are correctly defined.`
      if (typeof project === 'string') throw new ConfigError(project)
      for (const f of list)
        files.push({
          location: expandVariables(String(f), source.variables).replace(/^\/+/, ''),
          project,
          type: 'file',
          extra: { project: projectPath, ref: ref ?? 'HEAD' },
        })
    } else if (entry.remote !== undefined) {
      throw new ConfigError(
        `Remote file \`${String(entry.remote)}\` could not be fetched: remote includes are not supported by this server`,
      )
    } else if (entry.template !== undefined) {
      throw new ConfigError(`Included file \`${String(entry.template)}\` is empty or does not exist!`)
    } else {
      throw new ConfigError(
        `Component \`${String(entry.component)}\` could not be fetched: CI/CD components are not supported by this server`,
      )
    }
    for (const file of files) {
      const project = file.project as ProjectFiles
      if (!/\.ya?ml$/.test(file.location))
        throw new ConfigError(`Included file \`${file.location}\` does not have YAML extension!`)
      const key = `${project.projectPath}@${project.sha}:${file.location}`
      if (state.seen.has(key))
        throw new ConfigError(
          `Include \`${describeInclude(file.type === 'local' ? { local: file.location } : { project: project.projectPath, file: file.location })}\` was already included!`,
        )
      state.seen.add(key)
      state.count += 1
      if (state.count > MAX_INCLUDES) throw new ConfigError(`Maximum of ${MAX_INCLUDES} nested includes are allowed!`)
      const content = await readCached(state, key, () => project.read(file.location))
      const missing =
        file.type === 'local'
          ? `Local file \`${file.location}\` does not exist!`
          : `Project \`${project.projectPath}\` file \`${file.location}\` does not exist!`
      const included = parseIncluded(file.location, content, missing)
      state.records.push({
        type: file.type,
        location: file.location,
        blob: `${project.webUrl}/-/blob/${project.sha}/${file.location}`,
        raw: `${project.webUrl}/-/raw/${project.sha}/${file.location}`,
        extra: file.extra,
        context_project: context?.projectPath ?? null,
        context_sha: context?.sha ?? null,
      })
      // Local includes inside a file of another project are that project's files.
      merged = deepMerge(merged, await expandIncludes(included, project, source, state, skipLocal, depth + 1))
    }
  }
  const out = deepMerge(merged, rest)
  if (kept.length > 0) return { include: kept, ...out }
  return out
}

// ---- !reference -------------------------------------------------------------------------------

function resolveReferences(value: unknown, root: Hash, depth = 0): unknown {
  if (value instanceof ReferenceTag) {
    if (depth > 10) throw new ConfigError(`!reference ${JSON.stringify(value.path)} is part of a circular chain`)
    let target: unknown = root
    for (const key of value.path) {
      if (!isHash(target) || !(key in target))
        throw new ConfigError(`!reference ${JSON.stringify(value.path)} could not be found`)
      target = target[key]
    }
    return resolveReferences(target, root, depth + 1)
  }
  if (Array.isArray(value)) return value.map((v) => resolveReferences(v, root, depth))
  if (isHash(value))
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolveReferences(v, root, depth)]))
  return value
}

// ---- extends ----------------------------------------------------------------------------------

function expandExtends(config: Hash): Hash {
  const done = new Map<string, Hash>()
  const expand = (name: string, chain: readonly string[]): Hash => {
    const cached = done.get(name)
    if (cached) return cached
    const job = config[name] as Hash
    const ext = job.extends
    if (ext === undefined) {
      done.set(name, job)
      return job
    }
    if (typeof ext !== 'string' && !isStringArray(ext)) throw new ConfigError(`${name}: invalid extends value`)
    if (chain.length >= MAX_EXTENDS_DEPTH) throw new ConfigError(`${name}: nesting too deep in \`extends\``)
    let base: Hash = {}
    for (const parent of typeof ext === 'string' ? [ext] : ext) {
      if (!(parent in config)) throw new ConfigError(`${name}: unknown keys in \`extends\` (${parent})`)
      if (chain.includes(parent) || parent === name)
        throw new ConfigError(`${name}: circular dependency detected in \`extends\``)
      if (!isHash(config[parent])) throw new ConfigError(`${name}: invalid base hash in \`extends\``)
      base = deepMerge(base, expand(parent, [...chain, name]))
    }
    const { extends: _x, ...own } = job
    const merged = deepMerge(base, own)
    delete merged.extends
    done.set(name, merged)
    return merged
  }
  const out: Hash = {}
  for (const [name, value] of Object.entries(config)) {
    out[name] = isHash(value) && value.extends !== undefined && !GLOBAL_KEYS.has(name) ? expand(name, []) : value
  }
  return out
}

// ---- validation -------------------------------------------------------------------------------

function flattenScript(value: unknown, depth = 0): string[] | null {
  if (typeof value === 'string') return [value]
  if (typeof value === 'number' || typeof value === 'boolean') return [String(value)]
  if (!Array.isArray(value) || depth > 10) return null
  const out: string[] = []
  for (const v of value) {
    if (Array.isArray(v)) {
      const inner = flattenScript(v, depth + 1)
      if (!inner) return null
      out.push(...inner)
    } else if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') out.push(String(v))
    else return null
  }
  return out
}

function validateVariables(path: string, value: unknown, errors: string[]): void {
  if (value === undefined) return
  if (!isHash(value)) {
    errors.push(`${path} config should be a hash of key value pairs, value can be a hash`)
    return
  }
  for (const [k, v] of Object.entries(value)) {
    if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' || v === null) continue
    if (isHash(v) && Object.keys(v).every((x) => ['value', 'description', 'expand', 'options'].includes(x))) continue
    errors.push(`${path} config should be a hash of key value pairs, value can be a hash`)
    void k
    return
  }
}

function validateImage(path: string, value: unknown, errors: string[]): void {
  if (value === undefined || typeof value === 'string') return
  if (isHash(value)) {
    if (typeof value.name !== 'string') errors.push(`${path} config should be a hash or a string`)
    return
  }
  errors.push(`${path} config should be a hash or a string`)
}

function validateServices(path: string, value: unknown, errors: string[]): void {
  if (value === undefined) return
  if (!Array.isArray(value)) {
    errors.push(`${path} config should be a array`)
    return
  }
  for (const s of value)
    if (typeof s !== 'string' && !(isHash(s) && typeof s.name === 'string'))
      errors.push(`${path}:service config should be a hash or a string`)
}

function validateScript(path: string, value: unknown, errors: string[]): void {
  if (value === undefined) return
  if (!flattenScript(value))
    errors.push(`${path} config should be a string or a nested array of strings up to 10 levels deep`)
}

function validateRules(path: string, value: unknown, errors: string[]): void {
  if (value === undefined) return
  if (!Array.isArray(value)) {
    errors.push(`${path} config should be an array of hashes`)
    return
  }
  for (const rule of value) {
    if (!isHash(rule)) {
      errors.push(`${path}:rule config should be a hash`)
      continue
    }
    const unknown = Object.keys(rule).filter((k) => !RULE_KEYS.has(k))
    if (unknown.length > 0) errors.push(`${path}:rule config contains unknown keys: ${unknown.join(', ')}`)
    if (rule.if !== undefined && (typeof rule.if !== 'string' || !isValidExpression(rule.if)))
      errors.push(`${path}:rule if invalid expression syntax`)
    if (rule.when !== undefined && (typeof rule.when !== 'string' || !RULE_WHEN.includes(rule.when)))
      errors.push(`${path}:rule when unknown value: ${String(rule.when)}`)
    if (rule.allow_failure !== undefined && typeof rule.allow_failure !== 'boolean')
      errors.push(`${path}:rule allow_failure should be a boolean value`)
    if (
      rule.changes !== undefined &&
      !isStringArray(rule.changes) &&
      !(isHash(rule.changes) && isStringArray(rule.changes.paths))
    )
      errors.push(`${path}:rule changes should be an array of strings`)
    if (rule.exists !== undefined && !isStringArray(rule.exists) && typeof rule.exists !== 'string')
      errors.push(`${path}:rule exists should be an array of strings`)
    if (rule.variables !== undefined) validateVariables(`${path}:rule:variables`, rule.variables, errors)
  }
}

function validatePolicy(path: string, value: unknown, errors: string[]): void {
  if (value === undefined) return
  if (typeof value === 'string' || isStringArray(value)) return
  if (!isHash(value)) {
    errors.push(`${path} config should be an array of strings or regular expressions`)
    return
  }
  const unknown = Object.keys(value).filter((k) => !POLICY_KEYS.has(k))
  if (unknown.length > 0) errors.push(`${path} config contains unknown keys: ${unknown.join(', ')}`)
  if (value.refs !== undefined && !isStringArray(value.refs))
    errors.push(`${path}:refs config should be an array of strings or regular expressions`)
  if (value.variables !== undefined) {
    if (!isStringArray(value.variables)) errors.push(`${path}:variables config should be an array of strings`)
    else if (!value.variables.every(isValidExpression))
      errors.push(`${path}:variables config should be valid expressions`)
  }
  if (value.changes !== undefined && !isStringArray(value.changes))
    errors.push(`${path}:changes config should be an array of strings`)
}

function validateEnvironment(path: string, value: unknown, errors: string[]): void {
  if (value === undefined || typeof value === 'string') return
  if (!isHash(value)) {
    errors.push(`${path} config should be a hash or a string`)
    return
  }
  const unknown = Object.keys(value).filter((k) => !ENVIRONMENT_KEYS.has(k))
  if (unknown.length > 0) errors.push(`${path} config contains unknown keys: ${unknown.join(', ')}`)
  if (typeof value.name !== 'string' || value.name === '') errors.push(`${path} name can't be blank`)
  if (value.action !== undefined && !ENVIRONMENT_ACTIONS.includes(String(value.action)))
    errors.push(`${path} action should be start, stop, prepare, verify, or access`)
  if (value.deployment_tier !== undefined && !DEPLOYMENT_TIERS.includes(String(value.deployment_tier))) {
    errors.push(`${path} deployment_tier must be one of ${DEPLOYMENT_TIERS.join(', ')}`)
  }
  if (value.url !== undefined && typeof value.url !== 'string') errors.push(`${path} url should be a string`)
}

function validateArtifacts(path: string, value: unknown, errors: string[]): void {
  if (value === undefined) return
  if (!isHash(value)) {
    errors.push(`${path} config should be a hash`)
    return
  }
  const unknown = Object.keys(value).filter((k) => !ARTIFACT_KEYS.has(k))
  if (unknown.length > 0) errors.push(`${path} config contains unknown keys: ${unknown.join(', ')}`)
  if (value.paths !== undefined && !isStringArray(value.paths))
    errors.push(`${path} paths should be an array of strings`)
  if (value.exclude !== undefined && !isStringArray(value.exclude))
    errors.push(`${path} exclude should be an array of strings`)
  if (value.when !== undefined && !['on_success', 'on_failure', 'always'].includes(String(value.when)))
    errors.push(`${path} when should be on_success, on_failure or always`)
  if (value.expire_in !== undefined && value.expire_in !== 'never' && parseCiDuration(value.expire_in) === null)
    errors.push(`${path} expire in should be a duration`)
  if (value.untracked !== undefined && typeof value.untracked !== 'boolean')
    errors.push(`${path} untracked should be a boolean value`)
  if (value.reports !== undefined) {
    if (!isHash(value.reports)) errors.push(`${path}:reports config should be a hash`)
    else {
      for (const [k, v] of Object.entries(value.reports)) {
        if (typeof v !== 'string' && !isStringArray(v) && !isHash(v))
          errors.push(`${path}:reports ${k} should be an array of strings or a string`)
      }
    }
  }
}

function validateNeeds(path: string, value: unknown, errors: string[]): void {
  if (value === undefined) return
  if (!Array.isArray(value)) {
    errors.push(`${path} config can only be a hash or an array`)
    return
  }
  for (const need of value) {
    if (typeof need === 'string') continue
    if (
      isHash(need) &&
      (typeof need.job === 'string' || typeof need.pipeline === 'string' || typeof need.project === 'string')
    )
      continue
    errors.push(`${path} config can only be a hash or an array`)
    return
  }
}

function validateJob(name: string, job: Hash, errors: string[]): void {
  const path = `jobs:${name}`
  const unknown = Object.keys(job).filter((k) => !JOB_KEYS.has(k))
  if (unknown.length > 0) errors.push(`${path} config contains unknown keys: ${unknown.join(', ')}`)
  for (const key of ['script', 'before_script', 'after_script'] as const)
    validateScript(`${path}:${key}`, job[key], errors)
  if (job.stage !== undefined && typeof job.stage !== 'string') errors.push(`${path}:stage config should be a string`)
  if (job.when !== undefined && (typeof job.when !== 'string' || !WHEN.includes(job.when)))
    errors.push(`${path} when should be one of: ${WHEN.join(', ')}`)
  if (job.tags !== undefined && !isStringArray(job.tags))
    errors.push(`${path}:tags config should be an array of strings`)
  if (
    job.allow_failure !== undefined &&
    typeof job.allow_failure !== 'boolean' &&
    !(isHash(job.allow_failure) && job.allow_failure.exit_codes !== undefined)
  ) {
    errors.push(`${path}:allow_failure config should be a hash or a boolean value`)
  }
  if (job.dependencies !== undefined && !isStringArray(job.dependencies))
    errors.push(`${path} dependencies should be an array of strings`)
  validateNeeds(`${path}:needs`, job.needs, errors)
  if (job.rules !== undefined && (job.only !== undefined || job.except !== undefined)) {
    errors.push(
      `${path} config key may not be used with \`rules\`: ${['only', 'except'].filter((k) => job[k] !== undefined).join(', ')}`,
    )
  }
  validateRules(`${path}:rules`, job.rules, errors)
  validatePolicy(`${path}:only`, job.only, errors)
  validatePolicy(`${path}:except`, job.except, errors)
  validateEnvironment(`${path}:environment`, job.environment, errors)
  validateArtifacts(`${path}:artifacts`, job.artifacts, errors)
  validateImage(`${path}:image`, job.image, errors)
  validateServices(`${path}:services`, job.services, errors)
  validateVariables(`${path}:variables`, job.variables, errors)
  if (job.timeout !== undefined && parseCiDuration(job.timeout) === null)
    errors.push(`${path}:timeout config should be a duration`)
  if (job.start_in !== undefined) {
    if (job.when !== 'delayed') errors.push(`${path} start in must be blank when not a delayed job`)
    else if (parseCiDuration(job.start_in) === null) errors.push(`${path} start in should be a duration`)
  } else if (job.when === 'delayed' && job.rules === undefined) errors.push(`${path} start in should be a duration`)
  if (job.coverage !== undefined && (typeof job.coverage !== 'string' || !/^\/.+\/[a-z]*$/s.test(job.coverage)))
    errors.push(`${path}:coverage config must be a regular expression`)
  if (job.retry !== undefined) {
    const max = isHash(job.retry) ? job.retry.max : job.retry
    if (max !== undefined && (typeof max !== 'number' || !Number.isInteger(max) || max < 0 || max > 2))
      errors.push(`${path}:retry config must be less than or equal to 2`)
  }
  if (job.parallel !== undefined) {
    const p = job.parallel
    if (typeof p === 'number') {
      if (!Number.isInteger(p) || p < 1 || p > MAX_PARALLEL)
        errors.push(`${path}:parallel config must be less than or equal to ${MAX_PARALLEL}`)
    } else if (!(isHash(p) && Array.isArray(p.matrix) && p.matrix.every(isHash)))
      errors.push(`${path}:parallel should be an integer or a hash`)
  }
  if (job.interruptible !== undefined && typeof job.interruptible !== 'boolean')
    errors.push(`${path}:interruptible config should be a boolean value`)
  if (job.resource_group !== undefined && typeof job.resource_group !== 'string')
    errors.push(`${path}:resource_group config should be a string`)
}

function validateRoot(config: Hash, errors: string[]): void {
  for (const key of ['stages', 'types'] as const) {
    if (config[key] !== undefined && !isStringArray(config[key]))
      errors.push(`${key} config should be an array of strings`)
  }
  validateVariables('variables', config.variables, errors)
  validateImage('image', config.image, errors)
  validateServices('services', config.services, errors)
  validateScript('before_script', config.before_script, errors)
  validateScript('after_script', config.after_script, errors)
  if (config.default !== undefined) {
    if (!isHash(config.default)) errors.push('default config should be a hash')
    else {
      const unknown = Object.keys(config.default).filter((k) => !DEFAULT_KEYS.includes(k))
      if (unknown.length > 0) errors.push(`default config contains unknown keys: ${unknown.join(', ')}`)
      validateScript('default:before_script', config.default.before_script, errors)
      validateScript('default:after_script', config.default.after_script, errors)
      validateImage('default:image', config.default.image, errors)
      validateServices('default:services', config.default.services, errors)
      if (config.default.tags !== undefined && !isStringArray(config.default.tags))
        errors.push('default:tags config should be an array of strings')
    }
  }
  if (config.workflow !== undefined) {
    if (!isHash(config.workflow)) errors.push('workflow config should be a hash')
    else {
      const unknown = Object.keys(config.workflow).filter((k) => !WORKFLOW_KEYS.has(k))
      if (unknown.length > 0) errors.push(`workflow config contains unknown keys: ${unknown.join(', ')}`)
      validateRules('workflow:rules', config.workflow.rules, errors)
    }
  }
}

// ---- normalisation ----------------------------------------------------------------------------

function stringVariables(value: unknown): Record<string, string> {
  const out: Record<string, string> = {}
  if (!isHash(value)) return out
  for (const [k, v] of Object.entries(value)) {
    if (isHash(v)) out[k] = v.value === undefined || v.value === null ? '' : String(v.value)
    else out[k] = v === null ? '' : String(v)
  }
  return out
}

function imageOf(value: unknown): CiJob['image'] {
  if (typeof value === 'string') return { name: value }
  if (isHash(value) && typeof value.name === 'string') {
    const entrypoint = isStringArray(value.entrypoint) ? value.entrypoint : undefined
    return entrypoint ? { name: value.name, entrypoint } : { name: value.name }
  }
  return null
}

function servicesOf(value: unknown): CiJob['services'] {
  if (!Array.isArray(value)) return []
  return value.flatMap((s) => {
    if (typeof s === 'string') return [{ name: s }]
    if (isHash(s) && typeof s.name === 'string') {
      return [
        {
          name: s.name,
          ...(typeof s.alias === 'string' ? { alias: s.alias } : {}),
          ...(isStringArray(s.entrypoint) ? { entrypoint: s.entrypoint } : {}),
          ...(isStringArray(s.command) ? { command: s.command } : {}),
        },
      ]
    }
    return []
  })
}

function rulesOf(value: unknown): CiRule[] | null {
  if (!Array.isArray(value)) return null
  return value.filter(isHash).map((r) => {
    const changes = isStringArray(r.changes)
      ? r.changes
      : isHash(r.changes) && isStringArray(r.changes.paths)
        ? r.changes.paths
        : undefined
    const exists = typeof r.exists === 'string' ? [r.exists] : isStringArray(r.exists) ? r.exists : undefined
    return {
      ...(typeof r.if === 'string' ? { if: r.if } : {}),
      ...(changes ? { changes } : {}),
      ...(exists ? { exists } : {}),
      ...(typeof r.when === 'string' ? { when: r.when } : {}),
      ...(typeof r.allow_failure === 'boolean' ? { allow_failure: r.allow_failure } : {}),
      ...(r.variables !== undefined ? { variables: stringVariables(r.variables) } : {}),
    }
  })
}

function policyOf(value: unknown): RefPolicy | null {
  if (value === undefined) return null
  if (typeof value === 'string') return { refs: [value] }
  if (isStringArray(value)) return { refs: value }
  if (!isHash(value)) return null
  return {
    ...(isStringArray(value.refs) ? { refs: value.refs } : {}),
    ...(isStringArray(value.variables) ? { variables: value.variables } : {}),
    ...(isStringArray(value.changes) ? { changes: value.changes } : {}),
  }
}

function environmentOf(value: unknown): CiEnvironment | null {
  if (typeof value === 'string') return { name: value, action: 'start' }
  if (!isHash(value) || typeof value.name !== 'string') return null
  return {
    name: value.name,
    action: typeof value.action === 'string' ? value.action : 'start',
    ...(typeof value.url === 'string' ? { url: value.url } : {}),
    ...(typeof value.on_stop === 'string' ? { on_stop: value.on_stop } : {}),
    ...(typeof value.deployment_tier === 'string' ? { deployment_tier: value.deployment_tier } : {}),
    ...(typeof value.auto_stop_in === 'string' ? { auto_stop_in: value.auto_stop_in } : {}),
  }
}

function artifactsOf(value: unknown): CiArtifacts | null {
  if (!isHash(value)) return null
  const reports: Record<string, string[]> = {}
  if (isHash(value.reports)) {
    for (const [k, v] of Object.entries(value.reports)) {
      if (typeof v === 'string') reports[k] = [v]
      else if (isStringArray(v)) reports[k] = v
      else if (isHash(v) && typeof v.path === 'string') reports[k] = [v.path]
    }
  }
  return {
    ...(typeof value.name === 'string' ? { name: value.name } : {}),
    paths: isStringArray(value.paths) ? value.paths : [],
    exclude: isStringArray(value.exclude) ? value.exclude : [],
    untracked: value.untracked === true,
    when: typeof value.when === 'string' ? value.when : 'on_success',
    ...(value.expire_in !== undefined ? { expire_in: String(value.expire_in) } : {}),
    reports,
  }
}

function needsOf(value: unknown): string[] | null {
  if (!Array.isArray(value)) return null
  return value.flatMap((n) => (typeof n === 'string' ? [n] : isHash(n) && typeof n.job === 'string' ? [n.job] : []))
}

/** Which defaults a job inherits (`inherit:default`, `inherit:variables`). */
function inheritOf(job: Hash): { defaults: (key: string) => boolean; variables: (key: string) => boolean } {
  const inherit = isHash(job.inherit) ? job.inherit : {}
  const test = (spec: unknown) => (key: string) =>
    spec === undefined || spec === true || (isStringArray(spec) && spec.includes(key))
  return { defaults: test(inherit.default), variables: test(inherit.variables) }
}

/** Instances of a job after `parallel`: `name 1/3`… or `name: [a, b]` per matrix combination. */
function parallelInstances(name: string, parallel: unknown): { name: string; variables: Record<string, string> }[] {
  if (typeof parallel === 'number' && parallel > 1) {
    return Array.from({ length: parallel }, (_, i) => ({
      name: `${name} ${i + 1}/${parallel}`,
      variables: { CI_NODE_INDEX: String(i + 1), CI_NODE_TOTAL: String(parallel) },
    }))
  }
  if (isHash(parallel) && Array.isArray(parallel.matrix)) {
    const combos: Record<string, string>[] = []
    for (const entry of parallel.matrix.filter(isHash)) {
      let partial: Record<string, string>[] = [{}]
      for (const [k, v] of Object.entries(entry)) {
        const values = (Array.isArray(v) ? v : [v]).map((x) => String(x))
        partial = partial.flatMap((p) => values.map((x) => ({ ...p, [k]: x })))
      }
      combos.push(...partial)
    }
    return combos.map((vars, i) => ({
      name: `${name}: [${Object.values(vars).join(', ')}]`,
      variables: { ...vars, CI_NODE_INDEX: String(i + 1), CI_NODE_TOTAL: String(combos.length) },
    }))
  }
  return [{ name, variables: {} }]
}

function normaliseJobs(config: Hash, jobNames: readonly string[]): { jobs: CiJob[]; expanded: Map<string, string[]> } {
  const defaults: Hash = isHash(config.default) ? config.default : {}
  // Deprecated globals act as defaults when `default:` does not set them.
  const fallback: Hash = {}
  for (const key of ['image', 'services', 'before_script', 'after_script', 'cache']) {
    if (config[key] !== undefined && defaults[key] === undefined) fallback[key] = config[key]
  }
  const effectiveDefaults = { ...fallback, ...defaults }
  const globalVars = stringVariables(config.variables)
  const jobs: CiJob[] = []
  const expanded = new Map<string, string[]>()
  for (const name of jobNames) {
    const job = config[name] as Hash
    const inherit = inheritOf(job)
    const get = (key: string): unknown =>
      job[key] !== undefined ? job[key] : inherit.defaults(key) ? effectiveDefaults[key] : undefined
    const vars: Record<string, string> = {}
    for (const [k, v] of Object.entries(globalVars)) if (inherit.variables(k)) vars[k] = v
    Object.assign(vars, stringVariables(job.variables))
    const timeout = get('timeout')
    const retry = get('retry')
    const instances = parallelInstances(name, job.parallel)
    expanded.set(
      name,
      instances.map((i) => i.name),
    )
    for (const instance of instances) {
      jobs.push({
        name: instance.name,
        stage: typeof job.stage === 'string' ? job.stage : typeof job.type === 'string' ? job.type : 'test',
        script: flattenScript(job.script) ?? [],
        before_script: flattenScript(get('before_script')) ?? [],
        after_script: flattenScript(get('after_script')) ?? [],
        image: imageOf(get('image')),
        services: servicesOf(get('services')),
        tags: isStringArray(get('tags')) ? (get('tags') as string[]) : [],
        when: typeof job.when === 'string' ? job.when : 'on_success',
        allow_failure:
          typeof job.allow_failure === 'boolean' ? job.allow_failure : isHash(job.allow_failure) ? false : null,
        needs: needsOf(job.needs),
        optional_needs: Array.isArray(job.needs)
          ? job.needs.flatMap((n) => (isHash(n) && n.optional === true && typeof n.job === 'string' ? [n.job] : []))
          : [],
        dependencies: isStringArray(job.dependencies) ? job.dependencies : null,
        environment: environmentOf(job.environment),
        artifacts: artifactsOf(get('artifacts')),
        variables: { ...vars, ...instance.variables },
        rules: rulesOf(job.rules),
        only: policyOf(job.only),
        except: policyOf(job.except),
        timeout: timeout === undefined ? null : parseCiDuration(timeout),
        coverage: typeof job.coverage === 'string' ? job.coverage : null,
        retry: typeof retry === 'number' ? retry : isHash(retry) && typeof retry.max === 'number' ? retry.max : 0,
        interruptible: get('interruptible') === true,
        resource_group: typeof job.resource_group === 'string' ? job.resource_group : null,
        trigger: job.trigger !== undefined,
        start_in: typeof job.start_in === 'string' ? job.start_in : null,
      })
    }
  }
  // needs and dependencies naming a parallel job mean all of its instances.
  const expand = (list: readonly string[] | null): string[] | null =>
    list === null ? null : list.flatMap((n) => expanded.get(n) ?? [n])
  return {
    jobs: jobs.map((j) => ({
      ...j,
      needs: expand(j.needs),
      optional_needs: expand(j.optional_needs) ?? [],
      dependencies: expand(j.dependencies),
    })),
    expanded,
  }
}

/** GitLab's logical checks, which stop at the first failure as YamlProcessor raises it. */
function logicalError(stages: readonly string[], jobs: readonly CiJob[]): string | null {
  const byName = new Map(jobs.map((j) => [j.name, j]))
  for (const job of jobs) {
    if (!stages.includes(job.stage))
      return `${job.name} job: chosen stage does not exist; available stages are ${stages.join(', ')}`
  }
  const stageIndex = (j: CiJob) => stages.indexOf(j.stage)
  for (const job of jobs) {
    for (const dep of job.dependencies ?? []) {
      const target = byName.get(dep)
      if (!target) return `${job.name} job: undefined dependency: ${dep}`
      if (stageIndex(target) >= stageIndex(job) && !(job.needs ?? []).includes(dep))
        return `${job.name} job: dependency ${dep} is not defined in current or prior stages`
    }
    for (const need of job.needs ?? []) {
      const target = byName.get(need)
      if (!target) return `${job.name} job: undefined need: ${need}`
      if (stageIndex(target) > stageIndex(job))
        return `${job.name} job: need ${need} is not defined in current or prior stages`
      if (need === job.name) return `${job.name} job: need ${need} is not defined in current or prior stages`
    }
    if (job.environment?.on_stop) {
      const stop = byName.get(job.environment.on_stop)
      if (!stop) return `${job.name} job: on_stop job ${job.environment.on_stop} is not defined`
      if (!stop.environment)
        return `${job.name} job: on_stop job ${job.environment.on_stop} does not have environment defined`
      if (stop.environment.name !== job.environment.name)
        return `${job.name} job: on_stop job ${job.environment.on_stop} have different environment name`
      if (stop.environment.action !== 'stop')
        return `${job.name} job: on_stop job ${job.environment.on_stop} needs to have action stop defined`
    }
  }
  return null
}

function warningsOf(config: Hash, jobs: readonly CiJob[]): string[] {
  const hasWorkflowRules = isHash(config.workflow) && Array.isArray(config.workflow.rules)
  if (hasWorkflowRules) return []
  const warned = new Set<string>()
  const out: string[] = []
  for (const job of jobs) {
    const base = job.name.replace(/ \d+\/\d+$|: \[.*\]$/, '')
    if (warned.has(base)) continue
    const catchAll = (job.rules ?? []).some(
      (r) =>
        r.if === undefined &&
        r.changes === undefined &&
        r.exists === undefined &&
        r.when !== undefined &&
        r.when !== 'never',
    )
    if (catchAll) {
      warned.add(base)
      out.push(
        `jobs:${base} may allow multiple pipelines to run for a single action due to \`rules:when\` clause with no \`workflow:rules\` - read more: https://docs.gitlab.com/ee/ci/troubleshooting.html#pipeline-warnings`,
      )
    }
  }
  return out
}

/** Loads, expands and validates a CI configuration; `include:rules:if` sees `source.variables`. */
export async function loadCiConfig(content: string, source: IncludeSource): Promise<LoadedConfig> {
  const fail = (
    errors: string[],
    includes: readonly IncludeRecord[] = [],
    mergedYaml: string | null = null,
  ): LoadedConfig => ({ errors, warnings: [], config: null, mergedYaml, includes })
  if (content.trim() === '') return fail(['Please provide content of .gitlab-ci.yml'])
  const parsed = parseCiYaml(content)
  if (!parsed.ok) return fail([parsed.error])
  if (!isHash(parsed.value)) return fail(['Invalid configuration format'])
  const state: IncludeState = { count: 0, seen: new Set(), records: [], cache: new Map() }
  let expanded: Hash
  let mergedYaml: string | null = null
  try {
    const merged = await expandIncludes(parsed.value, source.local, source, state, false, 0)
    expanded = resolveReferences(merged, merged) as Hash
    const shallow = await expandIncludes(
      parsed.value,
      source.local,
      source,
      { ...state, seen: new Set(), records: [], count: 0 },
      true,
      0,
    )
    mergedYaml = dumpCiYaml(resolveReferences(shallow, expanded))
    expanded = expandExtends(expanded)
  } catch (error) {
    if (error instanceof ConfigError) return fail([error.message], state.records, mergedYaml)
    throw error
  }
  const errors: string[] = []
  validateRoot(expanded, errors)
  const jobNames: string[] = []
  for (const [name, value] of Object.entries(expanded)) {
    if (RESERVED.has(name) || name.startsWith('.')) continue
    if (!isHash(value) || (value.script === undefined && value.run === undefined && value.trigger === undefined)) {
      errors.push(`jobs ${name} config should implement the script:, run:, or trigger: keyword`)
      continue
    }
    jobNames.push(name)
    validateJob(name, value, errors)
  }
  if (jobNames.length === 0) errors.push('jobs config should contain at least one visible job')
  if (errors.length > 0) return fail(errors, state.records, mergedYaml)
  const declared = (expanded.stages ?? expanded.types) as string[] | undefined
  const stages = ['.pre', ...(declared ?? DEFAULT_STAGES).filter((s) => s !== '.pre' && s !== '.post'), '.post']
  const { jobs } = normaliseJobs(expanded, jobNames)
  const logical = logicalError(stages, jobs)
  if (logical) return fail([logical], state.records, mergedYaml)
  const workflow = isHash(expanded.workflow) ? rulesOf(expanded.workflow.rules) : null
  return {
    errors: [],
    warnings: warningsOf(expanded, jobs),
    config: { stages, variables: stringVariables(expanded.variables), workflowRules: workflow, jobs },
    mergedYaml,
    includes: state.records,
  }
}
