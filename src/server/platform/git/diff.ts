import { git, GitError } from './git'

/** git's well-known empty tree, the "parent" of a root commit. */
export const EMPTY_TREE_SHA = '4b825dc642cb6eb9a060e54bf8d69288fbee4904'

/** One changed file between two trees, with its patch. */
export interface FileDiff {
  readonly oldPath: string
  readonly newPath: string
  readonly aMode: string
  readonly bMode: string
  readonly newFile: boolean
  readonly renamedFile: boolean
  readonly deletedFile: boolean
  /** The patch from its first hunk (`@@ …`), header lines left out, as GitLab shows it. */
  readonly diff: string
  /** True when the patch was dropped because a size limit was reached. */
  readonly tooLarge: boolean
}

/** Size limits for a diff (GitLab's `diff_max_patch_bytes`, `diff_max_files`, `diff_max_lines`). */
export interface DiffLimits {
  readonly maxPatchBytes: number
  readonly maxFiles: number
  readonly maxLines: number
}

/** No limit: the whole diff (raw diffs, and checking diff note positions against every file). */
export const UNLIMITED_DIFF: DiffLimits = {
  maxPatchBytes: Number.MAX_SAFE_INTEGER,
  maxFiles: Number.MAX_SAFE_INTEGER,
  maxLines: Number.MAX_SAFE_INTEGER,
}

interface RawChange {
  readonly aMode: string
  readonly bMode: string
  readonly status: string
  readonly oldPath: string
  readonly newPath: string
}

function parseRaw(out: Buffer): RawChange[] {
  const parts = out.toString('utf8').split('\0')
  const changes: RawChange[] = []
  for (let i = 0; i < parts.length;) {
    const head = parts[i]
    if (!head.startsWith(':')) {
      i += 1
      continue
    }
    const [aMode, bMode, , , status] = head.slice(1).split(' ')
    const letter = status.charAt(0)
    if (letter === 'R' || letter === 'C') {
      changes.push({ aMode, bMode, status: letter, oldPath: parts[i + 1], newPath: parts[i + 2] })
      i += 3
    } else {
      changes.push({ aMode, bMode, status: letter, oldPath: parts[i + 1], newPath: parts[i + 1] })
      i += 2
    }
  }
  return changes
}

const HEADER =
  /^(diff --git |old mode |new mode |deleted file mode |new file mode |similarity index |dissimilarity index |rename from |rename to |copy from |copy to |index |--- |\+\+\+ )/

/** Splits `git diff -p` output into per-file bodies, header lines removed. */
function splitPatches(out: Buffer): string[] {
  const text = out.toString('utf8')
  const patches: string[] = []
  // A file's section starts at a `diff --git` line; patch content lines never do (they start with ' ', '+', '-', '\' or '@').
  const sections = text.split(/^(?=diff --git )/m).filter((s) => s.startsWith('diff --git '))
  for (const section of sections) {
    const lines = section.split('\n')
    let i = 0
    while (i < lines.length && HEADER.test(lines[i]) && !lines[i].startsWith('@@')) i += 1
    patches.push(lines.slice(i).join('\n'))
  }
  return patches
}

/**
 * `git diff --raw -p -z` output split in its two sections: NUL-terminated raw records, an empty
 * record (so the first `\0\0`, paths being never empty), then the patches in the same file order.
 */
function splitRawAndPatch(out: Buffer): { raw: Buffer; patch: Buffer } {
  const end = out.indexOf('\0\0')
  if (end < 0) return { raw: out, patch: Buffer.alloc(0) }
  return { raw: out.subarray(0, end + 1), patch: out.subarray(end + 2) }
}

function countLines(patch: string): number {
  let n = 0
  for (let i = 0; i < patch.length; i++) if (patch.charCodeAt(i) === 10) n += 1
  return n
}

/**
 * The changes from tree-ish `from` to `to` (resolved ids; `EMPTY_TREE_SHA` for a root commit),
 * renames detected. Limits apply as GitLab's diff collections apply them: a file whose patch
 * exceeds `maxPatchBytes` keeps its entry with an empty patch; past `maxFiles` files the rest
 * are left out; once `maxLines` patch lines have been shown, later files get empty patches.
 */
export async function diffTrees(gitDir: string, from: string, to: string, limits: DiffLimits): Promise<FileDiff[]> {
  return (await diffCollection(gitDir, from, to, limits)).diffs
}

/**
 * `diffTrees` with GitLab's `overflow?` of the collection: true when files were left out past
 * `maxFiles` or patches emptied past `maxLines` (one oversized patch alone does not overflow it).
 */
export function diffCollection(gitDir: string, from: string, to: string, limits: DiffLimits): Promise<DiffCollection> {
  return collectDiff(gitDir, [from, to], limits)
}

/**
 * `diffCollection` from the merge base of resolved commits `from` and `to` to `to` (`git diff
 * from...to`: git finds the base in the same run, the one `git merge-base` names); null when the
 * histories share nothing.
 */
export async function diffCollectionSinceMergeBase(
  gitDir: string,
  from: string,
  to: string,
  limits: DiffLimits,
): Promise<DiffCollection | null> {
  try {
    return await collectDiff(gitDir, [`${from}...${to}`], limits)
  } catch (error) {
    if (error instanceof GitError && /no merge base/.test(error.stderr)) return null
    throw error
  }
}

/** A diff's files and whether limits cut it (GitLab's `overflow?`). */
export interface DiffCollection {
  readonly diffs: FileDiff[]
  readonly overflow: boolean
}

async function collectDiff(gitDir: string, revisions: readonly string[], limits: DiffLimits): Promise<DiffCollection> {
  // One git run prints both the raw records and the patches: rename detection, the costly part of
  // a large diff, runs once instead of once per format.
  const { stdout } = await git(
    [
      'diff',
      '--raw',
      '-p',
      '-z',
      '--no-abbrev',
      '--full-index',
      '--src-prefix=a/',
      '--dst-prefix=b/',
      '-M',
      '--no-color',
      '--no-ext-diff',
      '--ignore-submodules=none',
      '--end-of-options',
      ...revisions,
    ],
    { gitDir },
  )
  const { raw, patch } = splitRawAndPatch(stdout)
  const changes = parseRaw(raw)
  const patches = splitPatches(patch)
  const diffs: FileDiff[] = []
  let lines = 0
  let overflow = changes.length > limits.maxFiles
  for (let i = 0; i < changes.length && i < limits.maxFiles; i++) {
    const c = changes[i]
    let body = patches[i] ?? ''
    let tooLarge = false
    const n = countLines(body)
    if (Buffer.byteLength(body) > limits.maxPatchBytes) {
      body = ''
      tooLarge = true
    } else if (lines + n > limits.maxLines) {
      body = ''
      tooLarge = true
      overflow = true
    } else {
      lines += n
    }
    diffs.push({
      oldPath: c.oldPath,
      newPath: c.newPath,
      aMode: c.status === 'A' ? '0' : c.aMode,
      bMode: c.status === 'D' ? '0' : c.bMode,
      newFile: c.status === 'A',
      renamedFile: c.status === 'R',
      deletedFile: c.status === 'D',
      diff: body,
      tooLarge,
    })
  }
  return { diffs, overflow }
}
