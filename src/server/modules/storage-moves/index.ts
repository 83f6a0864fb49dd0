/** What other modules may use of storage moves: the read-only checks during a move, and the schedulers. */
export { isProjectReadOnly } from './queries'
export {
  assertRepositoryWritable,
  assertSnippetRepositoryWritable,
  holdStorageMoves,
  scheduleProjectMove,
  storageMovesIdle,
} from './service'
