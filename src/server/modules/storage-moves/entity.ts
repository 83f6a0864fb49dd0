import { moveContainer, type MovedContainers, type StorageMoveRow, type StorageMoveState } from './queries'

/** GitLab's `human_state_name`: `cleanup_failed` reads `cleanup failed`. */
export function humanMoveState(state: StorageMoveState): string {
  return state.replace('_', ' ')
}

/**
 * GitLab's Projects/Snippets/Groups::RepositoryStorageMove entity: the move and what it moves
 * (a `project_ref`, the snippet's basic fields, or the group's id, name and page).
 */
export function storageMoveEntity(
  row: StorageMoveRow,
  containers: MovedContainers,
  baseUrl: string,
): Readonly<Record<string, unknown>> {
  const base = {
    id: row.id,
    created_at: row.created_at,
    state: humanMoveState(row.state),
    source_storage_name: row.source_storage_name,
    destination_storage_name: row.destination_storage_name,
  }
  const container = moveContainer(row)
  if (container.kind === 'project') {
    const p = containers.projects.get(container.id)
    return {
      ...base,
      project: p
        ? {
            id: p.id,
            description: p.description,
            name: p.name,
            name_with_namespace: `${p.ns_full_name} / ${p.name}`,
            path: p.path,
            path_with_namespace: `${p.ns_full_path}/${p.path}`,
            created_at: p.created_at,
          }
        : null,
    }
  }
  if (container.kind === 'snippet') {
    const s = containers.snippets.get(container.id)
    const webUrl = s
      ? s.project_full_path
        ? `${baseUrl}/${s.project_full_path}/-/snippets/${s.id}`
        : `${baseUrl}/-/snippets/${s.id}`
      : null
    return {
      ...base,
      snippet: s
        ? {
            id: s.id,
            title: s.title,
            description: s.description,
            visibility: s.visibility,
            updated_at: s.updated_at,
            created_at: s.created_at,
            project_id: s.project_id,
            web_url: webUrl,
            raw_url: `${webUrl}/raw`,
            // Snippets keep their content in the database: no repository to clone (see snippet.ts).
            ssh_url_to_repo: null,
            http_url_to_repo: null,
          }
        : null,
    }
  }
  const g = containers.groups.get(container.id)
  return { ...base, group: g ? { id: g.id, web_url: `${baseUrl}/groups/${g.full_path}`, name: g.name } : null }
}
