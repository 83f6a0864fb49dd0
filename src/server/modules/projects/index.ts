export {
  findProjectWithNamespace,
  insertProjectShare,
  listProjects,
  projectsInNamespaces,
  updateProjectRow,
  type ProjectListFilter,
  type ProjectWithNamespaceRow,
} from './queries'
export { projectRef, projectSettings, projectSimple } from './entity'
export { onProjectDeleting, type ProjectDeletingListener } from './deleting'
export { canCreateProjectIn, clampVisibility, createProject, destroyProject, type CreateProjectInput } from './service'
export { recordProjectChange, type ProjectChange } from './changes'
export {
  PROJECT_LIST_QUERY,
  presentProject,
  presentProjects,
  projectFilter,
  type ProjectListQuery,
  type ProjectPageOptions,
} from './listing'
