/** A project repository's languages (GitLab's `GET /projects/:id/languages`). */
import { Type, type Static } from 'typebox'

/** Language name to its share of the default branch's code in percent, largest first. */
export const RepositoryLanguages = Type.Record(Type.String(), Type.Number())
export type RepositoryLanguages = Static<typeof RepositoryLanguages>
