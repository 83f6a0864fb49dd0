// The tags module's public face: what other modules may use of it.
export { tagEntity, type TagEntity } from './entity'
export { findTagNamed, findTags, presentTags } from './service'
