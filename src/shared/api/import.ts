/**
 * Project imports (spec "Imports"): the answer of the import endpoints and a project's import status.
 */
import { Type, type Static } from 'typebox'
import { Entity, Nullable } from './common'
import { ProjectRef } from './project'

const ImportStatus = Type.Enum(['scheduled', 'started', 'finished', 'failed'])

/** `POST /import/hosted_git`, `POST /import/git_server`: the new project and its import. */
export const ProjectImport = Entity({
  id: Type.Integer(),
  name: Type.String(),
  full_path: Type.String(),
  full_name: Type.String(),
  refs_url: Type.String(),
  import_source: Type.String(),
  import_status: ImportStatus,
  human_import_status_name: Type.String(),
  provider_link: Type.String(),
  relation_type: Nullable(Type.String()),
  import_warning: Nullable(Type.String()),
})
export type ProjectImport = Static<typeof ProjectImport>

/** GitLab's ProjectImportStatus (`GET /projects/:id/import`); `none` for a project never imported. */
export const ProjectImportStatus = Entity({
  ...ProjectRef.properties,
  import_status: Type.Union([ImportStatus, Type.Literal('none')]),
  import_type: Nullable(Type.Enum(['hosted_git', 'git_server'])),
  correlation_id: Nullable(Type.String()),
  failed_relations: Type.Array(Type.Unknown()),
  import_error: Nullable(Type.String()),
  stats: Type.Record(Type.String(), Type.Integer()),
})
export type ProjectImportStatus = Static<typeof ProjectImportStatus>
