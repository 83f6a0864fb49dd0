/**
 * The release each tag shows. Releases build on tags (creating a release can create its tag), so
 * tags cannot import them without a cycle: the releases module registers how to read a tag's
 * release at startup (modules/index.ts), and tags ask through `releasesOfTagNames`.
 */
import type { TagRelease } from '../../../shared/api/repository'
import type { Caller } from '../../platform/caller'
import type { ProjectRow } from '../../platform/db/rows'

/** The release of each of these tags of the project that has one, for a caller who may read releases. */
export type TagReleaseReader = (
  caller: Caller,
  project: Pick<ProjectRow, 'id' | 'visibility' | 'settings'>,
  tags: readonly string[],
) => ReadonlyMap<string, TagRelease>

let reader: TagReleaseReader | undefined

/** Sets how tags read their releases (the releases module, at startup). */
export function registerTagReleases(read: TagReleaseReader): void {
  reader = read
}

/** The registered reader's answer; asking before startup registered one is a programming error. */
export function releasesOfTagNames(
  caller: Caller,
  project: Pick<ProjectRow, 'id' | 'visibility' | 'settings'>,
  tags: readonly string[],
): ReadonlyMap<string, TagRelease> {
  if (!reader) throw new Error('no tag release reader registered')
  return reader(caller, project, tags)
}
