import { computed, type ComputedRef } from 'vue'
import { useBridge } from '../bridge'
import { useReferenceDataStore } from '../stores/reference-data'
import { useRepositoriesStore } from '../stores/repositories'
import { useRepoRead } from './use-repo-read'

/** What the title needs of a project (GitLab's Project entity). */
interface ProjectPath {
  readonly path_with_namespace: string
}

/**
 * A project's `group/project` path for a title: the clone's or the synced copy's; for a project
 * not synced yet (just created, or a fork just made) read from the server. Until then it reads
 * "Project N"; when the server cannot tell (offline, nothing saved), it says the project is not on
 * this device, and when the server has no such project, that it was not found.
 */
export function useProjectPath(accountId: () => string, projectId: () => number): ComputedRef<string> {
  const bridge = useBridge()
  const repositories = useRepositoriesStore()
  const reference = useReferenceDataStore()

  const known = computed(
    () =>
      repositories.get(accountId(), projectId())?.pathWithNamespace ??
      reference.of(accountId()).projectsById.get(projectId())?.path_with_namespace ??
      null,
  )
  // Asked only once the clone list and the synced projects have answered without it.
  const asked = useRepoRead(
    () =>
      known.value === null && repositories.loaded && reference.data[accountId()] !== undefined
        ? [accountId(), projectId()]
        : null,
    async () =>
      ((await bridge.request('api:get', accountId(), `/projects/${projectId()}`)).body as ProjectPath)
        .path_with_namespace,
  )
  return computed(() => {
    if (known.value !== null) return known.value
    if (typeof asked.data.value === 'string') return asked.data.value
    const unknown = `Project ${projectId()}`
    const code = asked.error.value?.code
    if (code === undefined) return unknown
    return code === 'not-found' ? `${unknown} (not found on the server)` : `${unknown} (not on this device)`
  })
}
