import { git } from './git'

/** A blob of a commit's tree. */
export interface FoundFile {
  readonly path: string
  readonly oid: string
  readonly size: number
}

/**
 * Every blob of commit `sha` whose base name passes `wanted`, with its size, in one
 * `git ls-tree -r -l`. `sha` must be a resolved commit id.
 */
export async function findFilesByName(
  gitDir: string,
  sha: string,
  wanted: (baseName: string) => boolean,
): Promise<FoundFile[]> {
  const out = (
    await git(['ls-tree', '-r', '-l', '-z', '--full-tree', '--end-of-options', sha], { gitDir })
  ).stdout.toString('utf8')
  const found: FoundFile[] = []
  for (const record of out.split('\0')) {
    const tab = record.indexOf('\t')
    if (tab < 0) continue
    const [, type, oid, size] = record.slice(0, tab).split(/\s+/)
    const path = record.slice(tab + 1)
    if (type !== 'blob' || !wanted(path.slice(path.lastIndexOf('/') + 1))) continue
    found.push({ path, oid, size: Number(size) })
  }
  return found
}

/** The contents of several blobs in one `git cat-file --batch`, keyed by object id. */
export async function readBlobs(gitDir: string, oids: readonly string[]): Promise<Map<string, Buffer>> {
  const result = new Map<string, Buffer>()
  const unique = [...new Set(oids)]
  if (unique.length === 0) return result
  const out = (await git(['cat-file', '--batch'], { gitDir, input: unique.map((o) => `${o}\n`).join('') })).stdout
  let offset = 0
  while (offset < out.length) {
    const eol = out.indexOf(0x0a, offset)
    if (eol < 0) break
    const [oid, type, size] = out.subarray(offset, eol).toString('utf8').split(' ')
    if (type === undefined || size === undefined) {
      offset = eol + 1
      continue
    }
    const length = Number(size)
    if (type === 'blob') result.set(oid, out.subarray(eol + 1, eol + 1 + length))
    offset = eol + 1 + length + 1
  }
  return result
}
