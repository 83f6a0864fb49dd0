import { git, gitText, assertRef, isValidRef, ZERO_SHA } from './git'

/** A tag as git stores it: lightweight (pointing at a commit) or annotated (a tag object). */
export interface GitTag {
  readonly name: string
  /** The tag object id for annotated tags, the commit id for lightweight ones. */
  readonly target: string
  /** The commit the tag finally points at (null when it tags a tree or blob). */
  readonly commitId: string | null
  readonly annotated: boolean
  /** The annotation message, trailing newlines removed; empty for lightweight tags. */
  readonly message: string
  /** Tagger date of an annotated tag, null for lightweight ones. */
  readonly taggedAt: string | null
}

export type TagOrder = 'name' | 'updated' | 'version'

const SORT_KEYS: Readonly<Record<TagOrder, string>> = {
  name: 'refname',
  // GitLab's `updated` is the date the tag (or, for lightweight tags, its commit) was made.
  updated: 'creatordate',
  version: 'version:refname',
}

// Fields separated by NUL and records by 0x1e, so messages survive intact.
const FORMAT =
  [
    '%(refname)',
    '%(objectname)',
    '%(objecttype)',
    '%(*objectname)',
    '%(*objecttype)',
    '%(taggerdate:iso-strict)',
    '%(contents)',
  ].join('%00') + '%1e'

function parse(out: string): GitTag[] {
  const tags: GitTag[] = []
  for (const record of out.split('\x1e')) {
    const text = record.replace(/^\n/, '')
    if (!text) continue
    const [ref, objectId, objectType, peeledId, peeledType, taggerDate, contents] = text.split('\0')
    const annotated = objectType === 'tag'
    const commitId = annotated ? (peeledType === 'commit' ? peeledId : null) : objectType === 'commit' ? objectId : null
    tags.push({
      name: ref.slice('refs/tags/'.length),
      target: objectId,
      commitId,
      annotated,
      message: annotated ? (contents ?? '').replace(/\n+$/, '') : '',
      taggedAt: annotated && taggerDate ? taggerDate : null,
    })
  }
  return tags
}

/** Every tag, ordered by git per `order` and `sort`. */
export async function listTags(gitDir: string, order: TagOrder, sort: 'asc' | 'desc'): Promise<GitTag[]> {
  const key = `--sort=${sort === 'desc' ? '-' : ''}${SORT_KEYS[order]}`
  return parse(await gitText(['for-each-ref', key, `--format=${FORMAT}`, 'refs/tags/'], { gitDir }))
}

/** One tag by name, or null. */
export async function findTag(gitDir: string, name: string): Promise<GitTag | null> {
  assertRef(`refs/tags/${name}`)
  const [tag] = parse(
    await gitText(['for-each-ref', '--count=1', `--format=${FORMAT}`, `refs/tags/${name}`], { gitDir }),
  )
  // for-each-ref matches by prefix component; insist on the exact name.
  return tag && tag.name === name ? tag : null
}

/** True when git accepts `name` as a tag name (`git check-ref-format refs/tags/<name>`). */
export async function isValidTagName(name: string): Promise<boolean> {
  if (!isValidRef(name) || name.length > 255) return false
  const out = await git(['check-ref-format', `refs/tags/${name}`], { successExitCodes: [0, 1] })
  return out.exitCode === 0
}

/** The identity an annotated tag records as its tagger. */
export interface Tagger {
  readonly name: string
  readonly email: string
}

/**
 * Creates tag `name` at commit `sha`: annotated when `message` is given (tagged by `tagger`),
 * lightweight otherwise. Returns the new ref value; false when the tag already exists.
 */
export async function createTag(
  gitDir: string,
  name: string,
  sha: string,
  message: string | undefined,
  tagger: Tagger,
): Promise<string | false> {
  const ref = `refs/tags/${name}`
  assertRef(ref)
  let target = sha
  if (message !== undefined && message !== '') {
    const body = `object ${sha}\ntype commit\ntag ${name}\ntagger ${tagger.name.replace(/[<>\n]/g, '')} <${tagger.email.replace(/[<>\n]/g, '')}> ${Math.floor(Date.now() / 1000)} +0000\n\n${message.replace(/\n*$/, '\n')}`
    target = (await gitText(['mktag'], { gitDir, input: body })).trim()
  }
  // The expected old value ZERO_SHA makes creation atomic: an existing tag is never overwritten.
  const out = await git(['update-ref', '--end-of-options', ref, target, ZERO_SHA], {
    gitDir,
    successExitCodes: [0, 128],
  })
  return out.exitCode === 0 ? target : false
}

/** Deletes tag `name` if it still points at `target`; false when it did not. */
export async function deleteTag(gitDir: string, name: string, target: string): Promise<boolean> {
  const ref = `refs/tags/${name}`
  assertRef(ref)
  const out = await git(['update-ref', '-d', '--end-of-options', ref, target], { gitDir, successExitCodes: [0, 128] })
  return out.exitCode === 0
}
