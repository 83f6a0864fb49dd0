import { spawn, type ChildProcess } from 'node:child_process'
import { PassThrough, type Readable } from 'node:stream'
import { createGzip } from 'node:zlib'
import { spawnGit } from './git'

/** Archive formats of `GET /repository/archive[.format]`, by the extension clients ask for. */
export const ARCHIVE_FORMATS = ['tar.gz', 'tgz', 'gz', 'tar.bz2', 'tbz', 'tbz2', 'tb2', 'bz2', 'tar', 'zip'] as const
export type ArchiveFormat = (typeof ARCHIVE_FORMATS)[number]

/** How an archive format is produced and labelled. */
export interface ArchiveKind {
  readonly gitFormat: 'tar' | 'zip'
  readonly compress: 'gzip' | 'bzip2' | null
  /** Extension of the downloaded file name. */
  readonly extension: string
  readonly contentType: string
}

/** What git and the compressor do for each requested extension (the aliases GitLab accepts). */
export function archiveKind(format: ArchiveFormat): ArchiveKind {
  switch (format) {
    case 'zip':
      return { gitFormat: 'zip', compress: null, extension: 'zip', contentType: 'application/zip' }
    case 'tar':
      return { gitFormat: 'tar', compress: null, extension: 'tar', contentType: 'application/x-tar' }
    case 'tar.bz2':
    case 'tbz':
    case 'tbz2':
    case 'tb2':
    case 'bz2':
      return { gitFormat: 'tar', compress: 'bzip2', extension: 'tar.bz2', contentType: 'application/x-bzip2' }
    default:
      return { gitFormat: 'tar', compress: 'gzip', extension: 'tar.gz', contentType: 'application/gzip' }
  }
}

/**
 * Streams `git archive` of commit `sha` with every entry under `prefix/`, limited to `path`
 * when given, compressed per `kind`. Callers check the commit and path exist first, so a
 * failure here means the stream ends early and the client sees a truncated download.
 */
export function archiveStream(
  gitDir: string,
  sha: string,
  kind: ArchiveKind,
  prefix: string,
  path: string | undefined,
): Readable {
  const args = ['archive', `--format=${kind.gitFormat}`, `--prefix=${prefix}/`, '--end-of-options', sha]
  // After --end-of-options git archive takes every word as a path, `--` included.
  if (path) args.push(path)
  const children: ChildProcess[] = []
  const gitChild = spawnGit(args, { gitDir })
  gitChild.stdin?.end()
  children.push(gitChild)
  const out = new PassThrough()
  const source = gitChild.stdout as Readable
  if (kind.compress === 'gzip') {
    source.pipe(createGzip()).pipe(out)
  } else if (kind.compress === 'bzip2') {
    // bzip2 has no Node implementation here; the system binary (Debian package `bzip2`) compresses as a pipe.
    const bz = spawn('bzip2', ['-c'], { stdio: ['pipe', 'pipe', 'ignore'] })
    children.push(bz)
    bz.on('error', (error) => out.destroy(error))
    source.pipe(bz.stdin)
    bz.stdout.pipe(out)
  } else {
    source.pipe(out)
  }
  gitChild.stderr?.resume()
  gitChild.on('error', (error) => out.destroy(error))
  gitChild.on('close', (code) => {
    if (code !== 0 && code !== null) out.destroy(new Error(`git archive exited with ${code}`))
  })
  // A client that goes away must not leave git or bzip2 running.
  out.on('close', () => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL')
  })
  return out
}
