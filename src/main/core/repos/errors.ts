/** Why a repository operation or read failed; `code` crosses the IPC bridge as is. */
export type RepoErrorCode =
  | 'not-found'
  | 'not-cloned'
  | 'empty-repository'
  | 'not-a-directory'
  | 'not-a-file'
  | 'busy'
  | 'cancelled'
  | 'offline'
  | 'invalid-credentials'
  | 'forbidden'
  | 'invalid-arguments'
  | 'clone-failed'

export class RepoError extends Error {
  override readonly name = 'RepoError'
  constructor(
    readonly code: RepoErrorCode,
    message: string,
  ) {
    super(message)
  }
}

export function notFound(message: string): RepoError {
  return new RepoError('not-found', message)
}
