export {
  findGroup,
  findNamespaceByFullPath,
  findNamespaceById,
  findProject,
  findProjectById,
  groupAndDescendantIds,
  namespaceAncestors,
  projectIdsIn,
  rootNamespace,
} from './queries'
export { EMPTY_STORAGE_STATISTICS, GROUP_SETTING_DEFAULTS, groupSettings, groupWebUrl, namespaceEntity } from './entity'
export { VISIBILITY_LEVELS, VisibilitySchema, pathError, slugify } from './rules'
