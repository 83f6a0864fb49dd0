import { badRequest, validationFailed } from '../http/errors'

/**
 * GitLab's length limits on what people write, in characters (Ruby's count: code points), by
 * the model that validates them. Every write service checks its texts against these, before it
 * stores anything.
 */
export const TEXT_LIMITS = {
  /** Issues, merge requests and epics (Issuable: title 255, DESCRIPTION_LENGTH_MAX 1 MiB). */
  issuable: { title: 255, description: 1_048_576 },
  milestone: { title: 255, description: 1_048_576 },
  snippet: { title: 255, description: 1_048_576 },
  /** Label titles (the API's `name`/`new_name`); descriptions are limited in bytes, see LABEL_DESCRIPTION_BYTES. */
  label: { title: 255 },
  /** Personal, impersonation and project access tokens. */
  token: { name: 255, description: 255 },
  /** Project (2,000) and group (Namespace, 255) descriptions are GitLab's own, shorter limits. */
  project: { name: 255, description: 2_000 },
  group: { name: 255, description: 255 },
  user: { name: 255, username: 255 },
  /** Comments (Note: 1,000,000). */
  note: { note: 1_000_000 },
  /** Environment names and URLs, geo node names, CI variable keys, alert integration names. */
  name: { name: 255 },
} as const

/** Label descriptions, in bytes (Label::DESCRIPTION_LENGTH_MAX, 512 KiB). */
export const LABEL_DESCRIPTION_BYTES = 524_288

/** GitLab's length validation message: `is too long (maximum is 255 characters)`. */
export function tooLong(max: number): string {
  return `is too long (maximum is ${max} characters)`
}

/** True when `text` has more than `max` characters, counted as Ruby does (a surrogate pair is one). */
export function exceeds(text: string, max: number): boolean {
  if (text.length <= max) return false
  const pairs = text.match(/[\ud800-\udbff][\udc00-\udfff]/g)?.length ?? 0
  return text.length - pairs > max
}

/**
 * Adds GitLab's `is too long` message to `errors` (model validation errors by attribute) for
 * every parameter of `params` over its limit in `limits`; parameters that are absent or not text
 * are left to their own checks.
 */
export function addLengthErrors(
  errors: Record<string, string[]>,
  params: object,
  limits: Readonly<Record<string, number>>,
): void {
  for (const [field, max] of Object.entries(limits)) {
    const value = (params as Readonly<Record<string, unknown>>)[field]
    if (typeof value === 'string' && exceeds(value, max)) errors[field] = [...(errors[field] ?? []), tooLong(max)]
  }
}

/**
 * 400 with GitLab's model validation body, `{"message": {"title": ["is too long (maximum is 255
 * characters)"]}}`, for the parameters of `params` over their limits (see addLengthErrors).
 */
export function checkLengths(params: object, limits: Readonly<Record<string, number>>): void {
  const errors: Record<string, string[]> = {}
  addLengthErrors(errors, params, limits)
  if (Object.keys(errors).length > 0) throw validationFailed(errors)
}

/** 400 as GitLab's notes API answers a comment over the Note limit (`Note {:note=>[…]}`). */
export function checkNoteLength(body: string): void {
  if (exceeds(body, TEXT_LIMITS.note.note)) throw badRequest(`Note {:note=>["${tooLong(TEXT_LIMITS.note.note)}"]}`)
}

/** Rails' number_to_human_size, as GitLab's bytesize validator words sizes: `512 KB`, `1.5 MB`. */
function humanSize(bytes: number): string {
  const units = ['Bytes', 'KB', 'MB', 'GB']
  let value = bytes
  let unit = 0
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024
    unit += 1
  }
  if (unit === 0) return `${bytes} ${bytes === 1 ? 'Byte' : 'Bytes'}`
  return `${Number(value.toPrecision(3))} ${units[unit]}`
}

/** 400 for a label description over LABEL_DESCRIPTION_BYTES, with GitLab's bytesize message. */
export function checkLabelDescription(description: unknown): void {
  if (typeof description !== 'string') return
  const size = Buffer.byteLength(description, 'utf8')
  if (size <= LABEL_DESCRIPTION_BYTES) return
  throw validationFailed({
    description: [`is too long (${humanSize(size)}). The maximum size is ${humanSize(LABEL_DESCRIPTION_BYTES)}.`],
  })
}
