import type { GitBlob } from '../../platform/git/blob'

/** `GET /repository/blobs/:sha`: the blob's bytes as Base64. */
export interface BlobEntity {
  readonly size: number
  readonly encoding: 'base64'
  readonly content: string
  readonly sha: string
}

/** The blob endpoint's JSON for a blob read from git. */
export function blobEntity(b: GitBlob): BlobEntity {
  return { size: b.size, encoding: 'base64', content: b.content.toString('base64'), sha: b.sha }
}
