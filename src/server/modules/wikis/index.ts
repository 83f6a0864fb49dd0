/** The wikis module's public face: what other modules may use (git smart HTTP serves the wiki repository). */
export { canReadWikiWith, canWriteWikiWith } from './policy'
export { ensureWikiRepo, wikiGitDir } from './repository'
