import { git, isSha } from './git'

/** A blob's bytes and identity. */
export interface GitBlob {
  readonly sha: string
  readonly size: number
  readonly content: Buffer
}

/**
 * Reads the blob named by an object id (full or abbreviated SHA); null when the id is not
 * hexadecimal, names nothing, or names something other than a blob.
 */
export async function readBlob(gitDir: string, oid: string): Promise<GitBlob | null> {
  if (!isSha(oid)) return null
  // One `cat-file --batch` answers existence, type, size and content in a single process.
  const out = (await git(['cat-file', '--batch'], { gitDir, input: `${oid}\n` })).stdout
  const eol = out.indexOf(0x0a)
  const header = out.subarray(0, eol).toString('utf8').split(' ')
  if (header.length !== 3 || header[1] !== 'blob') return null
  const size = Number(header[2])
  return { sha: header[0], size, content: out.subarray(eol + 1, eol + 1 + size) }
}
