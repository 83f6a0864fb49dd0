// The tags module's public face: what other modules may use of it.
export { tagEntity, type TagEntity } from './entity'
export { createProjectTag, findTagNamed, findTags, presentTags, type NewTag } from './service'
export { registerTagReleases, type TagReleaseReader } from './releases'
