import { parseDocument, stringify, type ScalarTag, type CollectionTag, YAMLSeq } from 'yaml'

/** A `!reference [.job, key, …]` tag, resolved against the merged configuration after includes. */
export class ReferenceTag {
  constructor(readonly path: readonly string[]) {}
}

// GitLab parses CI files with Ruby's Psych (YAML 1.1): yes/no/on/off are booleans there, but `y`
// and `n` stay strings, so the 1.2 core schema plus these words matches it better than yaml's 1.1.
const psychBooleans: ScalarTag = {
  identify: (value) => typeof value === 'boolean',
  default: true,
  tag: 'tag:yaml.org,2002:bool',
  test: /^(?:[Yy]es|YES|[Nn]o|NO|[Oo]n|ON|[Oo]ff|OFF)$/,
  resolve: (text) => /^(?:[Yy]es|YES|[Oo]n|ON)$/.test(text),
}

const reference: CollectionTag = {
  tag: '!reference',
  collection: 'seq',
  identify: (value) => value instanceof ReferenceTag,
  resolve(seq) {
    const items = seq instanceof YAMLSeq ? (seq.toJSON() as unknown[]) : []
    return new ReferenceTag(items.map((i) => String(i)))
  },
}

/** The result of parsing one CI file: its value, or GitLab-style error text. */
export type ParsedYaml = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly error: string }

/**
 * Parses CI YAML the way GitLab reads it: anchors and aliases (`<<` merge keys included), the
 * `!reference` tag, Psych's booleans; duplicate keys keep the last value, as Psych does.
 */
export function parseCiYaml(text: string): ParsedYaml {
  const doc = parseDocument(text, {
    customTags: [psychBooleans, reference],
    uniqueKeys: false,
    merge: true,
    prettyErrors: true,
  })
  if (doc.errors.length > 0) {
    // Psych's form: `(<unknown>): <problem> at line L column C`, without yaml's source excerpt.
    const e = doc.errors[0]
    const at = e.linePos?.[0]
    const problem = e.message.split(/ at line \d+, column \d+/)[0].split('\n')[0]
    return {
      ok: false,
      error: at ? `(<unknown>): ${problem} at line ${at.line} column ${at.col}` : `(<unknown>): ${problem}`,
    }
  }
  try {
    return { ok: true, value: doc.toJS({ maxAliasCount: 1000 }) as unknown }
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) }
  }
}

/** Serialises a configuration as GitLab's merged_yaml does: a `---` document, sequences not indented under keys. */
export function dumpCiYaml(value: unknown): string {
  return `---\n${stringify(value, { indentSeq: false, lineWidth: 0, customTags: [reference] })}`
}
