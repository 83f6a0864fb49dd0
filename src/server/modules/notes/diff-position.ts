/**
 * A merge request diff note's text position, as GitLab's Discussions API takes it: from a JSON body
 * (`position: {...}`) or from form-encoded `position[...]` keys, which Fastify's form parser leaves
 * either nested or as flat `position[new_line]`-style keys depending on the client.
 * Pure: no database, no git. Checking the position against the merge request's diff is the caller's job.
 */

/** One end of a multi-line comment's range. */
export interface LineRangeEnd {
  readonly line_code: string | null
  readonly type: 'new' | 'old' | null
  readonly old_line: number | null
  readonly new_line: number | null
}

/** GitLab's text position (the `position` of a DiffNote). */
export interface TextPosition {
  readonly base_sha: string
  readonly start_sha: string
  readonly head_sha: string
  readonly old_path: string
  readonly new_path: string
  readonly position_type: 'text'
  readonly old_line: number | null
  readonly new_line: number | null
  readonly line_range: { readonly start: LineRangeEnd; readonly end: LineRangeEnd } | null
}

/** Why a position could not be read; the route turns it into a 400. */
export class PositionError extends Error {}

type Loose = Readonly<Record<string, unknown>>

function isObject(value: unknown): value is Loose {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/**
 * The position object of a request body: `body.position` when it is already an object, else the flat
 * `position[a][b]` keys folded into one. Undefined when the body has no position at all.
 */
export function positionInput(body: Loose): Loose | undefined {
  if (isObject(body.position)) return body.position
  const folded: Record<string, unknown> = {}
  let found = false
  for (const [key, value] of Object.entries(body)) {
    const path = /^position((?:\[[^\]]+\])+)$/.exec(key)
    if (!path) continue
    found = true
    const parts = [...path[1].matchAll(/\[([^\]]+)\]/g)].map((m) => m[1])
    let target = folded
    for (const part of parts.slice(0, -1)) {
      if (!isObject(target[part])) target[part] = {}
      target = target[part] as Record<string, unknown>
    }
    target[parts[parts.length - 1]] = value
  }
  return found ? folded : undefined
}

function lineNumber(value: unknown, name: string): number | null {
  if (value === undefined || value === null || value === '') return null
  const n = typeof value === 'number' ? value : Number(value)
  if (!Number.isInteger(n) || n < 1) throw new PositionError(`${name} is invalid`)
  return n
}

function requiredString(input: Loose, name: string): string {
  const value = input[name]
  if (typeof value !== 'string' || value === '') throw new PositionError(`${name} is missing`)
  return value
}

function rangeEnd(value: unknown, name: string): LineRangeEnd {
  if (!isObject(value)) throw new PositionError(`line_range[${name}] is missing`)
  const type = value.type === 'new' || value.type === 'old' ? value.type : null
  return {
    line_code: typeof value.line_code === 'string' ? value.line_code : null,
    type,
    old_line: lineNumber(value.old_line, `line_range[${name}][old_line]`),
    new_line: lineNumber(value.new_line, `line_range[${name}][new_line]`),
  }
}

/** A text position from its loose input; PositionError names the first field that is wrong. */
export function parseTextPosition(input: Loose): TextPosition {
  const type = input.position_type ?? 'text'
  if (type !== 'text') throw new PositionError('position_type is not supported')
  const oldPath = typeof input.old_path === 'string' && input.old_path !== '' ? input.old_path : undefined
  const newPath = typeof input.new_path === 'string' && input.new_path !== '' ? input.new_path : undefined
  if (!oldPath && !newPath) throw new PositionError('new_path is missing')
  const position: TextPosition = {
    base_sha: requiredString(input, 'base_sha'),
    start_sha: requiredString(input, 'start_sha'),
    head_sha: requiredString(input, 'head_sha'),
    old_path: oldPath ?? (newPath as string),
    new_path: newPath ?? (oldPath as string),
    position_type: 'text',
    old_line: lineNumber(input.old_line, 'old_line'),
    new_line: lineNumber(input.new_line, 'new_line'),
    line_range: isObject(input.line_range)
      ? { start: rangeEnd(input.line_range.start, 'start'), end: rangeEnd(input.line_range.end, 'end') }
      : null,
  }
  if (position.old_line === null && position.new_line === null) throw new PositionError('new_line is missing')
  return position
}
