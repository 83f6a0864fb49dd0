import type { ProjectImport, ProjectImportStatus } from '../../../shared/api/import'
import type { ProjectImportRow } from './queries'
import type { ProjectWithNamespaceRow } from '../projects'
import { projectRef } from '../projects'

/** GitLab's import serializer (the answer of the import endpoints): the new project and its import. */
export function projectImportEntity(p: ProjectWithNamespaceRow, imp: ProjectImportRow): ProjectImport {
  const fullPath = `/${p.ns_full_path}/${p.path}`
  return {
    id: p.id,
    name: p.name,
    full_path: fullPath,
    full_name: `${p.ns_full_name} / ${p.name}`,
    refs_url: `${fullPath}/refs`,
    import_source: imp.import_source,
    import_status: imp.status,
    human_import_status_name: imp.status,
    provider_link: `${imp.import_url}/${imp.import_source}`,
    relation_type: null,
    import_warning: null,
  }
}

/** GitLab's ProjectImportStatus entity (`GET /projects/:id/import`); `none` for a project never imported. */
export function projectImportStatusEntity(
  p: ProjectWithNamespaceRow,
  imp: ProjectImportRow | undefined,
): ProjectImportStatus {
  return {
    ...projectRef(p),
    import_status: imp?.status ?? 'none',
    import_type: imp?.import_type ?? null,
    correlation_id: imp?.correlation_id ?? null,
    failed_relations: [],
    import_error: imp?.error ?? null,
    stats: imp ? (JSON.parse(imp.stats) as Record<string, number>) : {},
  }
}
