import type { Snippet } from '../../../shared/api/snippet'
import { ReadableItems } from '../../platform/auth/readable'
import type { Caller } from '../../platform/caller'
import { presentSnippets } from './present'
import { snippetsMatching } from './queries'

/**
 * GitLab's `snippet_titles` search: the snippets the caller may read (the snippets read rule, through
 * the confidentiality registry) whose title, description or file name contains `term`, newest first,
 * from at most `limit` candidates; one page of them serialised, with how many were found.
 */
export function searchSnippets(
  caller: Caller,
  term: string,
  limit: number,
  window: { readonly limit: number; readonly offset: number },
): { readonly items: Snippet[]; readonly total: number } {
  const readable = new ReadableItems(caller.db, caller.perms)
  const found = snippetsMatching(caller.db, term, limit).filter((s) => readable.item('Snippet', s.id))
  return {
    items: presentSnippets(caller, found.slice(window.offset, window.offset + window.limit)),
    total: found.length,
  }
}
