import fs from 'node:fs'
import { cp, mkdtemp, readdir, rm, stat } from 'node:fs/promises'
import { join } from 'node:path'
import git, { type AuthCallback, type HttpClient, type ProgressCallback } from 'isomorphic-git'

/** What one clone or fetch needs: the transport, the credential callback and a progress callback. */
export interface TransferOptions {
  readonly http: HttpClient
  /** Called when the server asks for credentials (a 401); answers from memory, never from disk. */
  readonly onAuth: AuthCallback
  readonly onProgress?: ProgressCallback
}

export interface FetchOutcome {
  /** The server's default branch (`main`), or null for an empty repository. */
  readonly defaultBranch: string | null
}

const FETCH_REFSPEC = '+refs/heads/*:refs/remotes/origin/*'

/**
 * A new bare repository at `gitdir` whose `origin` is `url` (no credential in it: they come from
 * `onAuth` per request), fetching every branch as `refs/remotes/origin/*`.
 */
export async function initClone(gitdir: string, url: string): Promise<void> {
  if (new URL(url).username !== '' || new URL(url).password !== '')
    throw new Error('A clone URL must not carry credentials.')
  await git.init({ fs, gitdir, bare: true, defaultBranch: 'main' })
  await git.setConfig({ fs, gitdir, path: 'remote.origin.url', value: url })
  await git.setConfig({ fs, gitdir, path: 'remote.origin.fetch', value: FETCH_REFSPEC })
}

/** Points `origin` at `url` (a project renamed or moved since the clone). */
export async function setRemoteUrl(gitdir: string, url: string): Promise<void> {
  if (new URL(url).username !== '' || new URL(url).password !== '')
    throw new Error('A clone URL must not carry credentials.')
  const current: unknown = await git.getConfig({ fs, gitdir, path: 'remote.origin.url' })
  if (current !== url) await git.setConfig({ fs, gitdir, path: 'remote.origin.url', value: url })
}

/**
 * Fetches every branch and tag of `origin`, pruning branches and tags the server no longer has.
 * A second refusal of the credential stops (instead of asking again forever).
 */
export async function fetchAll(gitdir: string, options: TransferOptions): Promise<FetchOutcome> {
  const result = await git.fetch({
    fs,
    http: options.http,
    gitdir,
    remote: 'origin',
    singleBranch: false,
    tags: true,
    prune: true,
    pruneTags: true,
    onAuth: options.onAuth,
    onAuthFailure: () => ({ cancel: true }),
    onProgress: options.onProgress,
  })
  const head = result.defaultBranch
  return { defaultBranch: head === null || head === undefined ? null : head.replace(/^refs\/heads\//, '') }
}

/** The refs of a clone as they are now, to put back if a fetch does not finish. */
export interface RefsSnapshot {
  restore(): Promise<void>
  discard(): Promise<void>
}

/**
 * isomorphic-git writes the new refs before the pack that holds their commits has arrived, so a
 * fetch cut short (cancelled, the network gone) would leave branches pointing at missing
 * objects. The refs (loose and packed) are copied first and put back on failure, with any pack
 * that has no index yet (a half-written download).
 */
export async function snapshotRefs(gitdir: string): Promise<RefsSnapshot> {
  const dir = await mkdtemp(join(gitdir, 'refs-snapshot-'))
  await cp(join(gitdir, 'refs'), join(dir, 'refs'), { recursive: true })
  const packed = join(gitdir, 'packed-refs')
  const hadPacked = fs.existsSync(packed)
  if (hadPacked) await cp(packed, join(dir, 'packed-refs'))
  return {
    async restore() {
      await rm(join(gitdir, 'refs'), { recursive: true, force: true })
      await cp(join(dir, 'refs'), join(gitdir, 'refs'), { recursive: true })
      if (hadPacked) await cp(join(dir, 'packed-refs'), packed)
      else await rm(packed, { force: true })
      await removeUnindexedPacks(gitdir)
      await rm(dir, { recursive: true, force: true })
    },
    async discard() {
      await rm(dir, { recursive: true, force: true })
    },
  }
}

/** Packs without their `.idx` are downloads that never finished: never read, only taking space. */
export async function removeUnindexedPacks(gitdir: string): Promise<void> {
  const packDir = join(gitdir, 'objects', 'pack')
  let names: string[]
  try {
    names = await readdir(packDir)
  } catch {
    return
  }
  for (const name of names) {
    if (name.endsWith('.pack') && !names.includes(name.replace(/\.pack$/, '.idx')))
      await rm(join(packDir, name), { force: true })
  }
}

/** Bytes under `dir` (files only). */
export async function diskUsage(dir: string): Promise<number> {
  let total = 0
  let entries
  try {
    entries = await readdir(dir, { withFileTypes: true })
  } catch {
    return 0
  }
  for (const entry of entries) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) total += await diskUsage(path)
    else if (entry.isFile()) total += (await stat(path)).size
  }
  return total
}
