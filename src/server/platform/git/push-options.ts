/**
 * Git push options (`git push -o merge_request.create -o ci.variable=K=V`), read as GitLab's
 * Gitlab::PushOptions reads them: `namespace.key[=value]`, only the namespaces and keys GitLab
 * knows (others are ignored), `mr` standing for `merge_request`. Keys that may be given several
 * times (labels, assignees, CI variables) keep every value; the others keep the last one.
 */

const KNOWN_KEYS: Readonly<Record<string, readonly string[]>> = {
  merge_request: [
    'create',
    'target',
    'title',
    'description',
    'label',
    'unlabel',
    'assign',
    'unassign',
    'merge_when_pipeline_succeeds',
    'auto_merge',
    'remove_source_branch',
    'draft',
  ],
  ci: ['skip', 'variable'],
}
const MULTI_VALUE_KEYS = new Set([
  'merge_request.label',
  'merge_request.unlabel',
  'merge_request.assign',
  'merge_request.unassign',
  'ci.variable',
])
const NAMESPACE_ALIASES: Readonly<Record<string, string>> = { mr: 'merge_request' }
const OPTION = /^(\w+)\.(\w+)(?:=([\s\S]*))?$/

/** The options of one push, by `namespace.key`: every value given (a bare option's value is `true`). */
export class PushOptions {
  private constructor(
    /** The options as git sent them, known or not. */
    readonly raw: readonly string[],
    private readonly values: ReadonlyMap<string, readonly (string | true)[]>,
  ) {}

  /** Reads the options as git sent them, one per entry. */
  static parse(raw: readonly string[]): PushOptions {
    const values = new Map<string, (string | true)[]>()
    for (const option of raw) {
      const m = OPTION.exec(option)
      if (!m) continue
      const namespace = NAMESPACE_ALIASES[m[1]] ?? m[1]
      if (!KNOWN_KEYS[namespace]?.includes(m[2])) continue
      const key = `${namespace}.${m[2]}`
      const value = m[3] ?? true
      values.set(key, MULTI_VALUE_KEYS.has(key) ? [...(values.get(key) ?? []), value] : [value])
    }
    return new PushOptions(raw, values)
  }

  /** Whether `namespace.key` was given at all. */
  has(key: string): boolean {
    return this.values.has(key)
  }

  /** Whether a `namespace.*` option was given. */
  hasNamespace(namespace: string): boolean {
    return [...this.values.keys()].some((key) => key.startsWith(`${namespace}.`))
  }

  /** The last text value of `key`; undefined when absent or given bare. */
  text(key: string): string | undefined {
    const value = this.values.get(key)?.at(-1)
    return typeof value === 'string' ? value : undefined
  }

  /** Every text value of a multi-value key, in the order given (empty values dropped). */
  texts(key: string): string[] {
    return (this.values.get(key) ?? []).filter((v): v is string => typeof v === 'string' && v !== '')
  }
}
