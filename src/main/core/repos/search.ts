import type { RepoSearchHit } from '../../../shared/ipc/repos'
import { fold, hasAllTerms, markTerms } from '../cache/search'
import type { SearchableFiles } from './reader'

/** Where one clone's files are, for the hits. */
export interface SearchedClone {
  readonly projectId: number
  readonly pathWithNamespace: string
  readonly ref: string
}

/**
 * The files of one clone that hold every term (folded words, each matching the beginning of a
 * word, as the cache's search): by their path, or on one line of their text (its first such
 * line). Name matches come first, then content matches, each in tree order.
 */
export function searchFiles(
  clone: SearchedClone,
  index: SearchableFiles,
  terms: readonly string[],
): { readonly names: RepoSearchHit[]; readonly contents: RepoSearchHit[] } {
  const names: RepoSearchHit[] = []
  const contents: RepoSearchHit[] = []
  for (const file of index.files) {
    if (hasAllTerms(file.path, terms)) {
      names.push({ ...clone, path: file.path, matchedIn: 'name', line: null, snippet: markTerms(file.path, terms) })
      continue
    }
    // Lines are only split in files that hold every word somewhere.
    if (file.text === null || file.folded === null || !terms.every((t) => (file.folded as string).includes(t))) continue
    const found = firstLineWithAll(file.text, terms)
    if (found !== null)
      contents.push({
        ...clone,
        path: file.path,
        matchedIn: 'content',
        line: found.line,
        snippet: markTerms(found.text, terms),
      })
  }
  return { names, contents }
}

/** Longest line shown in a hit; a longer one is cut around its first match. */
const LINE_MAX = 200

/** The first line holding every term, numbered from 1. */
function firstLineWithAll(text: string, terms: readonly string[]): { line: number; text: string } | null {
  const lines = text.split('\n')
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].replace(/\r$/, '')
    if (!hasAllTerms(line, terms)) continue
    if (line.length <= LINE_MAX) return { line: i + 1, text: line.trim() }
    const at = Math.max(0, fold(line).indexOf(terms[0]) - 40)
    return { line: i + 1, text: `${at > 0 ? '…' : ''}${line.slice(at, at + LINE_MAX).trim()}…` }
  }
  return null
}
