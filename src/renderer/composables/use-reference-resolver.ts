import type { Reference } from '../lib/markdown'
import { useReferenceDataStore } from '../stores/reference-data'

/**
 * Where a Markdown reference leads inside the app, for text written in one project of one
 * account: `#12` to that project's issue, `group/app!3` to the merge request of the project with
 * that path (when it is synced), `~bug` to the issue list filtered by that label.
 */
export function useReferenceResolver(
  accountId: () => string,
  projectId: () => number | null,
): (reference: Reference) => string | null {
  const data = useReferenceDataStore()
  return (reference) => {
    const account = accountId()
    if (reference.kind === 'label' && reference.name !== null)
      return `#/issues?labels=${encodeURIComponent(reference.name)}&state=opened`
    if (reference.kind !== 'issue' && reference.kind !== 'merge_request') return null
    let project = projectId()
    if (reference.namespace !== null) {
      const projects = data.of(account)
      const here = project !== null ? projects.projectsById.get(project) : undefined
      // `app#1` names a project beside this one; `group/app#1` names it in full.
      const path =
        reference.namespace.includes('/') || here === undefined
          ? reference.namespace
          : `${here.path_with_namespace.split('/').slice(0, -1).join('/')}/${reference.namespace}`
      project = projects.projectsByPath.get(path.toLowerCase())?.id ?? null
    }
    if (project === null || reference.id === null) return null
    return `#/a/${account}/projects/${project}/${reference.kind === 'issue' ? 'issues' : 'merge_requests'}/${reference.id}`
  }
}
