import type { GitContributor } from '../../platform/git/contributors'

/** GitLab's `Entities::Contributor`; additions and deletions are deprecated and always 0. */
export interface ContributorEntity {
  readonly name: string
  readonly email: string
  readonly commits: number
  readonly additions: 0
  readonly deletions: 0
}

/** A contributor as `GET /repository/contributors` lists it. */
export function contributorEntity(c: GitContributor): ContributorEntity {
  return { name: c.name, email: c.email, commits: c.commits, additions: 0, deletions: 0 }
}
