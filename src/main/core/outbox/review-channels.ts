import type { DraftInput, ItemRef, ItemTarget } from '../../../shared/ipc/outbox'
import type { AddDraftRequest, ReviewDraft, ReviewRequests } from '../../../shared/ipc/review'
import { NetworkError } from '../api/errors'
import { OutboxError, type Outbox, type OutboxAccounts } from './outbox'
import { draftNoteBody, draftNotesPath, readDraftNotes, serverDraft, type DraftNoteJson } from './review'
import type { LocalDraft } from './review-drafts'

/** One async function per review channel (handlers.ts spreads them into the contract's handlers). */
export type ReviewHandlers = {
  readonly [C in keyof ReviewRequests]: (...args: ReviewRequests[C]['args']) => Promise<ReviewRequests[C]['result']>
}

const mergeRequest = (r: ItemRef): ItemTarget => ({ type: 'merge_request', projectId: r.projectId, iid: r.iid })

function localDraft(d: LocalDraft): ReviewDraft {
  return {
    id: `local-${d.id}`,
    source: 'local',
    note: d.draft.note,
    position: d.draft.position ?? null,
    discussionId: d.draft.discussionId ?? null,
  }
}

function draftInput(r: AddDraftRequest): DraftInput {
  return {
    note: r.note,
    ...(r.position === undefined ? {} : { position: r.position }),
    ...(r.discussionId === undefined ? {} : { discussionId: r.discussionId }),
  }
}

/**
 * The pending review channels over the outbox: drafts go to the server's Draft notes API when it
 * can be reached and are kept on this computer when it cannot; the submission is an outbox entry.
 */
export function reviewHandlers(
  services: () => { readonly outbox: Outbox; readonly accounts: OutboxAccounts },
): ReviewHandlers {
  /** Runs a server request, or answers null when the server cannot be reached (nothing was sent, or it may have been). */
  async function whenReachable<T>(
    accountId: string,
    run: (client: Awaited<ReturnType<OutboxAccounts['clientFor']>>) => Promise<T>,
  ): Promise<T | null> {
    const { accounts } = services()
    if (!accounts.connectivityFor(accountId).online) return null
    try {
      return await run(await accounts.clientFor(accountId))
    } catch (error) {
      if (error instanceof NetworkError) return null
      throw error
    }
  }
  return {
    'reviews:drafts': async (accountId, r) => {
      const local = services().outbox.drafts.list(accountId, r).map(localDraft)
      const server = await whenReachable(accountId, (client) => readDraftNotes(client, r))
      return { drafts: [...(server ?? []).map(serverDraft), ...local], serverRead: server !== null }
    },
    'reviews:add-draft': async (accountId, r) => {
      const draft = draftInput(r)
      const created = await whenReachable(accountId, (client) =>
        client.post<DraftNoteJson>(draftNotesPath(r), draftNoteBody(draft)),
      )
      // Offline, or the answer was lost: kept here. A copy the server did get is not sent twice on submission.
      if (created !== null) return serverDraft(created)
      return localDraft(services().outbox.drafts.add(accountId, r, draft, new Date().toISOString()))
    },
    'reviews:delete-draft': async (accountId, r) => {
      const [source, id] = r.draftId.split('-')
      if (source === 'local') {
        if (!services().outbox.drafts.remove(accountId, r, Number(id)))
          throw new OutboxError('entry-not-found', 'This draft is not kept on this computer any more.')
        return { deleted: true }
      }
      const deleted = await whenReachable(accountId, (client) => client.delete(`${draftNotesPath(r)}/${id}`))
      if (deleted === null)
        throw new OutboxError('offline', 'Deleting a draft kept on the server needs a connection to it.')
      return { deleted: true }
    },
    'reviews:submit': async (accountId, r) => services().outbox.submitReview(accountId, mergeRequest(r), r.approveSha),
  }
}
