import { Type } from 'typebox'
import type { Visibility } from '../../platform/db/rows'

// Rules groups and projects share: the order of visibility levels, and the path format (a group's
// or project's path is one segment of the namespace tree's full paths).

/** A `visibility` parameter, as the Projects and Groups APIs declare it. */
export const VisibilitySchema = Type.Union([Type.Literal('private'), Type.Literal('internal'), Type.Literal('public')])

export const VISIBILITY_LEVELS: Readonly<Record<Visibility, number>> = { private: 0, internal: 10, public: 20 }

const PATH_FORMAT = /^[a-zA-Z0-9_.][a-zA-Z0-9_\-.]*$/

const PATH_MESSAGE =
  "can contain only letters, digits, '_', '-' and '.'. Cannot start with '-', end in '.git' or end in '.atom'"

/** Validation message for a path (projects and namespaces share the rule), or null when valid. */
export function pathError(path: string): string | null {
  if (path === '') return "can't be blank"
  if (path.length > 255) return 'is too long (maximum is 255 characters)'
  if (!PATH_FORMAT.test(path) || /\.(git|atom)$/i.test(path) || path.endsWith('.')) return PATH_MESSAGE
  return null
}

/** Rails' `parameterize`: the path GitLab derives from a name. */
export function slugify(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9_.-]+/g, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^[-.]+|[-.]+$/g, '')
}
