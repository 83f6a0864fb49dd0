import type { TreeEntry } from '../../platform/git/tree'

/** GitLab's tree entry (`Entities::TreeObject`). */
export interface TreeEntryEntity {
  readonly id: string
  readonly name: string
  readonly type: 'tree' | 'blob' | 'commit'
  readonly path: string
  readonly mode: string
}

/** A `git ls-tree` entry as the tree endpoint returns it. */
export function treeEntryEntity(e: TreeEntry): TreeEntryEntity {
  return { id: e.id, name: e.name, type: e.type, path: e.path, mode: e.mode }
}
