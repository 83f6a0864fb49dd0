import { git, gitText, ZERO_SHA } from '../../platform/git/git'
import { recordEvent, type PushData } from './service'
import type { PushContext, RefUpdate } from '../../platform/git/push-listeners'

function shortRef(ref: string): { name: string; type: 'branch' | 'tag' } | null {
  if (ref.startsWith('refs/heads/')) return { name: ref.slice('refs/heads/'.length), type: 'branch' }
  if (ref.startsWith('refs/tags/')) return { name: ref.slice('refs/tags/'.length), type: 'tag' }
  return null
}

async function pushData(gitDir: string, u: RefUpdate, name: string, refType: 'branch' | 'tag'): Promise<PushData> {
  const created = u.oldSha === ZERO_SHA
  const removed = u.newSha === ZERO_SHA
  let commitCount = 0
  let title: string | null = null
  if (!removed) {
    // New refs count the commits no other branch or tag has; HEAD is left out on purpose.
    const range = created ? [u.newSha, '--not', `--exclude=${u.ref}`, '--glob=refs/**'] : [`${u.oldSha}..${u.newSha}`]
    commitCount = Number((await gitText(['rev-list', '--count', ...range], { gitDir })).trim()) || 0
    title = (await gitText(['log', '-1', '--format=%s', u.newSha], { gitDir })).trim() || null
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
export async function recordPushEvents({ ctx, project, user, updates }: PushContext): Promise<void> {
  const gitDir = ctx.repos.repoPath(project.repository_storage, 'project', project.id)
  for (const u of updates) {
    const ref = shortRef(u.ref)
    if (!ref) continue
    // Only refs that really moved to the pushed value count (a rejected update is not an event).
    const current = await git(['rev-parse', '--verify', '--quiet', u.ref], { gitDir, successExitCodes: [0, 1] })
    const now = current.exitCode === 0 ? current.stdout.toString().trim() : ZERO_SHA
    if (now !== u.newSha) continue
    recordEvent(ctx.db, {
      authorId: user.id,
      action: 'pushed',
      projectId: project.id,
      pushData: await pushData(gitDir, u, ref.name, ref.type),
    })
  }
}
