// Project snippets' public face: the read rule and rows that notes, storage moves and lists of
// other families need.
export { canReadSnippet } from './policy'
export { findSnippetById, insertSnippet, type SnippetRow } from './queries'
export { projectSnippetWebUrl } from './entity'
export { searchSnippets } from './search'
