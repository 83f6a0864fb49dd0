/** What other modules may use of storage moves: the checks that a project's or snippet's repository is not read-only during a move. */
export { assertRepositoryWritable, assertSnippetRepositoryWritable } from './service'
