import type { Diff } from '../../../shared/api/repository'
import type { FileDiff } from '../../platform/git/diff'

/** GitLab's `Entities::Diff`. */
export type DiffEntity = Diff

/**
 * One file's diff. With `unidiff` the patch carries its `---`/`+++` header lines, so it can be
 * applied as a unified diff; GitLab's default leaves them out.
 */
export function diffEntity(d: FileDiff, unidiff = false): DiffEntity {
  let diff = d.diff
  if (unidiff && diff !== '') {
    const from = d.newFile ? '/dev/null' : `a/${d.oldPath}`
    const to = d.deletedFile ? '/dev/null' : `b/${d.newPath}`
    diff = `--- ${from}\n+++ ${to}\n${diff}`
  }
  return {
    diff,
    new_path: d.newPath,
    old_path: d.oldPath,
    a_mode: d.aMode,
    b_mode: d.bMode,
    new_file: d.newFile,
    renamed_file: d.renamedFile,
    deleted_file: d.deletedFile,
    generated_file: null,
  }
}
