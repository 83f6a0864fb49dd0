import { gitText, ZERO_SHA } from '../../platform/git/git'
import { recordEvent, type PushData } from './service'
import type { LandedPush, RefUpdate } from '../../platform/git/push-listeners'
import type { PushReads } from '../../platform/git/push-reads'

function shortRef(ref: string): { name: string; type: 'branch' | 'tag' } | null {
  if (ref.startsWith('refs/heads/')) return { name: ref.slice('refs/heads/'.length), type: 'branch' }
  if (ref.startsWith('refs/tags/')) return { name: ref.slice('refs/tags/'.length), type: 'tag' }
  return null
}

async function pushData(reads: PushReads, u: RefUpdate, name: string, refType: 'branch' | 'tag'): Promise<PushData> {
  const { gitDir } = reads
  const created = u.oldSha === ZERO_SHA
  const removed = u.newSha === ZERO_SHA
  let commitCount = 0
  let title: string | null = null
  if (!removed) {
    // New refs count the commits no other branch or tag has; HEAD is left out on purpose.
    const range = created ? [u.newSha, '--not', `--exclude=${u.ref}`, '--glob=refs/**'] : [`${u.oldSha}..${u.newSha}`]
    commitCount = Number((await gitText(['rev-list', '--count', ...range], { gitDir })).trim()) || 0
    title = (await reads.landedCommit(u))?.subject.trim() || null
  }
  return {
    commit_count: commitCount,
    action: created ? 'created' : removed ? 'removed' : 'pushed',
    ref_type: refType,
    commit_from: created ? null : u.oldSha,
    commit_to: removed ? null : u.newSha,
    ref: name,
    commit_title: title,
    ref_count: null,
  }
}

/** Records a `pushed` activity event with push_data for every branch or tag a push changed. */
export async function recordPushEvents({ ctx, project, user, updates, reads }: LandedPush): Promise<void> {
  for (const u of updates) {
    const ref = shortRef(u.ref)
    if (!ref) continue
    // Only refs that really moved to the pushed value count (a rejected update is not an event).
    if (((await reads.refNow(u.ref))?.object ?? ZERO_SHA) !== u.newSha) continue
    recordEvent(ctx.db, {
      authorId: user.id,
      action: 'pushed',
      projectId: project.id,
      pushData: await pushData(reads, u, ref.name, ref.type),
    })
  }
}
