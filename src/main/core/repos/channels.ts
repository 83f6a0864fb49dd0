import type { ReposRequests } from '../../../shared/ipc/repos'
import type { IpcHandlers } from '../dispatch'
import type { RepoService } from './service'

/**
 * The `repos:*` channels on top of RepoService; handlers.ts spreads these in. `repos()` throws
 * `unavailable` when the launch has no cache or accounts. Arguments were checked by the
 * contract's validators; the service checks refs and paths again before using them.
 */
export function reposHandlers(repos: () => RepoService): Pick<IpcHandlers, keyof ReposRequests> {
  return {
    'repos:list': async (accountId) => repos().list(accountId),
    'repos:clone': (accountId, projectId) => repos().clone(accountId, projectId),
    'repos:fetch': (accountId, projectId) => repos().fetch(accountId, projectId),
    'repos:cancel': (accountId, projectId) => repos().cancel(accountId, projectId),
    'repos:remove': async (accountId, projectId) => {
      await repos().remove(accountId, projectId)
      return null
    },
    'repos:refs': (accountId, projectId) => repos().refs(accountId, projectId),
    'repos:tree': (accountId, r) => repos().tree(accountId, r.projectId, r.ref, r.path ?? ''),
    'repos:blob': (accountId, r) => repos().blob(accountId, r.projectId, r.ref, r.path),
    'repos:blame': (accountId, r) => repos().blame(accountId, r.projectId, r.ref, r.path),
    'repos:log': (accountId, r) =>
      repos().log(accountId, r.projectId, r.ref, r.path ?? '', r.page ?? 1, r.perPage ?? 30),
    'repos:commit': (accountId, r) => repos().commit(accountId, r.projectId, r.sha),
    'repos:compare': (accountId, r) => repos().compare(accountId, r.projectId, r.from, r.to, r.straight ?? false),
    'repos:merge-request-changes': (accountId, r) => repos().mergeRequestChanges(accountId, r.projectId, r.iid),
    'repos:search': (accountId, r) => repos().search(accountId, r),
  }
}
