import type { ItemTarget, Mutation } from '../../../shared/ipc/outbox'
import { ApiError } from '../api/errors'
import { issueLinksPath } from '../cache/issue-links'
import { isRecord } from '../cache/json'
import type { Check, Outcome, SendContext } from './send'

/*
 * Issue link writes (`issues:link`, `issues:unlink`). Both say what the user wants to be true
 * rather than an operation to repeat: a link already there (the server's 409) or already gone
 * is the write's intent holding, never an error, so a replay after a lost answer or a change
 * made elsewhere meanwhile lands as done.
 */

type LinkMutation = Extract<Mutation, { kind: 'link' | 'unlink' }>

/** The link between the target issue and the mutation's other issue, as the server lists it now; null when none. */
async function currentLink(
  target: ItemTarget,
  m: LinkMutation,
  ctx: SendContext,
): Promise<{ readonly id: number; readonly type: unknown } | null> {
  const links = await ctx.client.get<unknown>(issueLinksPath(target.projectId, target.iid))
  const found = (Array.isArray(links) ? links : []).find(
    (l) => isRecord(l) && l.project_id === m.targetProjectId && l.iid === m.targetIid,
  )
  return isRecord(found) && typeof found.issue_link_id === 'number'
    ? { id: found.issue_link_id, type: found.link_type }
    : null
}

/** Saves both issues' links again for offline reading once a write landed; best effort, the write is done either way. */
async function resaveLinks(target: ItemTarget, m: LinkMutation, ctx: SendContext): Promise<void> {
  await ctx.resave(issueLinksPath(target.projectId, target.iid), 'issue', target.projectId)
  await ctx.resave(issueLinksPath(m.targetProjectId, m.targetIid), 'issue', m.targetProjectId)
}

/** Sends a link or unlink write of an issue. */
export async function sendLinkWrite(target: ItemTarget, m: LinkMutation, ctx: SendContext): Promise<Outcome> {
  const path = issueLinksPath(target.projectId, target.iid)
  if (m.kind === 'link') {
    if (!ctx.beginSend()) return { state: 'skipped' }
    let reason: string | null = null
    try {
      await ctx.client.post(path, {
        target_project_id: m.targetProjectId,
        target_issue_iid: m.targetIid,
        link_type: m.linkType,
      })
    } catch (error) {
      // 409: the two issues are linked already (whatever the type): the link the user wanted is there.
      if (!(error instanceof ApiError && error.status === 409)) throw error
      reason = 'These issues were already linked.'
    }
    await resaveLinks(target, m, ctx)
    return { state: 'done', reason }
  }
  const link = await currentLink(target, m, ctx)
  if (link === null) {
    await resaveLinks(target, m, ctx)
    return { state: 'done', reason: 'These issues were not linked any more.' }
  }
  if (!ctx.beginSend()) return { state: 'skipped' }
  try {
    await ctx.client.delete(`${path}/${link.id}`)
  } catch (error) {
    // Removed by someone else between the read and the delete.
    if (!(error instanceof ApiError && error.status === 404)) throw error
  }
  await resaveLinks(target, m, ctx)
  return { state: 'done', reason: null }
}

/** Whether a link write whose answer was lost took effect: the link is there (link) or gone (unlink). */
export async function checkLinkWrite(target: ItemTarget, m: LinkMutation, ctx: SendContext): Promise<Check> {
  const linked = (await currentLink(target, m, ctx)) !== null
  if (linked === (m.kind === 'link'))
    return {
      applied: true,
      reason: m.kind === 'link' ? 'The link is on the server.' : 'The link is gone from the server.',
    }
  return {
    applied: false,
    reason: m.kind === 'link' ? 'The link was not on the server.' : 'The link was still on the server.',
  }
}
