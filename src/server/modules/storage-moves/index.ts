/** What other modules may use of storage moves: the check that a repository is not read-only during a move. */
export { assertRepositoryWritable } from './service'
