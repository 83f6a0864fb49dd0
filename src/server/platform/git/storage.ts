import { createHash } from 'node:crypto'
import { existsSync, mkdirSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { git } from './git'

/**
 * Where repositories live: `<data-dir>/repositories/<storage>/@hashed/ab/cd/<sha256>.git`,
 * keyed by project id like GitLab's hashed storage, so renames and transfers never move files.
 */
export class RepositoryStorage {
  constructor(
    private readonly dataDir: string,
    readonly storages: readonly string[],
  ) {}

  /** Relative disk path of a project's bare repository inside a storage. */
  static hashedPath(kind: 'project' | 'wiki' | 'snippet' | 'group', id: number): string {
    const hash = createHash('sha256')
      .update(`${kind === 'project' ? '' : kind + ':'}${id}`)
      .digest('hex')
    return join('@hashed', hash.slice(0, 2), hash.slice(2, 4), `${hash}.git`)
  }

  storageRoot(storage: string): string {
    if (!this.storages.includes(storage)) throw new Error(`unknown repository storage ${storage}`)
    return join(this.dataDir, 'repositories', storage)
  }

  /** Absolute path of a bare repository. */
  repoPath(storage: string, kind: 'project' | 'wiki' | 'snippet' | 'group', id: number): string {
    return join(this.storageRoot(storage), RepositoryStorage.hashedPath(kind, id))
  }

  /** Creates an empty bare repository whose HEAD points at `defaultBranch` (idempotent). */
  async create(path: string, defaultBranch: string): Promise<void> {
    if (existsSync(join(path, 'HEAD'))) return
    mkdirSync(dirname(path), { recursive: true })
    await git(['init', '--bare', '--quiet', `--initial-branch=${defaultBranch}`, path])
    // http-backend serves pushes only with this on; receive.denyDeletes stays off so branch deletion works.
    await git(['config', 'http.receivepack', 'true'], { gitDir: path })
    await git(['config', 'core.logAllRefUpdates', 'false'], { gitDir: path })
  }
}
