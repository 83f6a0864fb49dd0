// The repository module's public face: a project's repository on disk, commits through the API, diffs.
export {
  createProjectRepository,
  refreshFlagsOnPush,
  refreshRepositoryFlags,
  removeProjectRepository,
  userIdentity,
} from './service'
export { diffEntity, type DiffEntity } from './diff-entity'
