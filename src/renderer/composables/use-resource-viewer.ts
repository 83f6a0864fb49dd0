import { computed, shallowRef, watch, type ComputedRef, type ShallowRef } from 'vue'
import { useBridge } from '../bridge'
import { explainCode } from '../lib/ipc-errors'
import { useSyncStore } from '../stores/sync'
import type { ResourceScope } from '../resources/types'

/** Who the account's user is in the panel's context: an administrator, and their access level there. */
export interface Viewer {
  readonly admin: boolean
  /** The access level in the context's project or group (null: none, or not known yet). */
  readonly level: number | null
  /** `GET /user` came from the saved copy (or there was none): core cannot reach the instance. */
  readonly offline?: boolean
}

function accessOf(value: unknown): number {
  const level = (value as { access_level?: unknown } | null | undefined)?.access_level
  return typeof level === 'number' ? level : 0
}

/**
 * The viewer's role for the resource panels, read with `api:get` (so it works offline from the
 * URL cache): `GET /user` for the administrator flag, the project's `permissions`, or the
 * viewer's inherited membership of the group. Only decides what the panels offer; the server
 * still checks every request.
 */
export function useResourceViewer(
  context: () => {
    readonly accountId: string | null
    readonly userId: number | null
    readonly scope: ResourceScope
    readonly projectId: number | null
    readonly groupId: number | null
  },
): ShallowRef<Viewer> {
  const bridge = useBridge()
  const viewer = shallowRef<Viewer>({ admin: false, level: null })
  let generation = 0
  watch(
    () => ({ ...context() }),
    async (c) => {
      const mine = ++generation
      if (c.accountId === null) return
      const get = (path: string) =>
        bridge
          .request('api:get', c.accountId as string, path)
          .then((r) => r.body)
          .catch(() => null)
      const me = await bridge.request('api:get', c.accountId, '/user').then(
        (r) => ({ body: r.body, offline: r.stale }),
        (e: unknown) => ({ body: null, offline: (e as { code?: unknown } | null)?.code === 'offline' }),
      )
      const user = me.body
      let level: number | null = null
      if (c.scope === 'project' && c.projectId !== null) {
        const project = (await get(`/projects/${c.projectId}`)) as {
          permissions?: { project_access?: unknown; group_access?: unknown }
        } | null
        level = Math.max(accessOf(project?.permissions?.project_access), accessOf(project?.permissions?.group_access))
      } else if (c.scope === 'group' && c.groupId !== null && c.userId !== null) {
        level = accessOf(await get(`/groups/${c.groupId}/members/all/${c.userId}`))
      }
      if (mine === generation)
        viewer.value = { admin: (user as { is_admin?: unknown } | null)?.is_admin === true, level, offline: me.offline }
    },
    { immediate: true, deep: true },
  )
  return viewer
}

/**
 * Why writes are off for an account right now (core found its instance unreachable, or what is
 * shown came from the offline copy), or null when they may be tried.
 */
export function useWriteBlock(accountId: () => string | null, stale: () => boolean): ComputedRef<string | null> {
  const sync = useSyncStore()
  return computed(() => {
    const id = accountId()
    if (id === null) return 'Choose an account first.'
    if (sync.isOffline(id) || stale()) return explainCode('offline')
    return null
  })
}
