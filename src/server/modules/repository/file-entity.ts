import { createHash } from 'node:crypto'
import type { RepositoryFile as RepositoryFileEntity } from '../../../shared/api/repository'

/** A file read at a ref, with what the Files API reports about it. */
export interface RepositoryFile {
  readonly filePath: string
  readonly ref: string
  readonly content: Buffer
  readonly blobId: string
  readonly commitId: string
  readonly lastCommitId: string
  readonly executable: boolean
}

/** The last segment of a repository path: the file's own name. */
export function fileName(filePath: string): string {
  return filePath.split('/').pop() ?? filePath
}

/** GitLab's file fields without content (also sent as `X-Gitlab-*` headers). */
export function fileMeta(f: RepositoryFile): Omit<RepositoryFileEntity, 'content'> {
  return {
    file_name: fileName(f.filePath),
    file_path: f.filePath,
    size: f.content.length,
    encoding: 'base64',
    content_sha256: createHash('sha256').update(f.content).digest('hex'),
    ref: f.ref,
    blob_id: f.blobId,
    commit_id: f.commitId,
    last_commit_id: f.lastCommitId,
    execute_filemode: f.executable,
  }
}

/** GitLab's file entity: the metadata and the Base64 content. */
export function fileEntity(f: RepositoryFile): RepositoryFileEntity {
  return { ...fileMeta(f), content: f.content.toString('base64') }
}

/** The `X-Gitlab-*` headers of HEAD and raw file requests. */
export function fileHeaders(f: RepositoryFile): Readonly<Record<string, string>> {
  const headers: Record<string, string> = {}
  for (const [k, v] of Object.entries(fileMeta(f))) {
    const name =
      'X-Gitlab-' +
      k
        .split('_')
        .map((w) => w[0].toUpperCase() + w.slice(1))
        .join('-')
    headers[name] = String(v)
  }
  return headers
}
