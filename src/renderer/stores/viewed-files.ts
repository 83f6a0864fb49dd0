import { defineStore } from 'pinia'
import { MAX_VIEWED_MERGE_REQUESTS, type ViewedFiles } from '../../shared/ipc/preferences'
import { usePreferencesStore } from './preferences'

/** A merge request at one head, whose files the reviewer marks viewed. */
export type ReviewKey = Omit<ViewedFiles, 'paths'>

const sameMergeRequest = (a: ReviewKey, b: ReviewKey): boolean =>
  a.accountId === b.accountId && a.projectId === b.projectId && a.iid === b.iid

/**
 * The files marked viewed in review, per merge request at its head: kept by core with the
 * preferences (`viewedFiles`), so they last across restarts and work offline. A new head
 * starts the marks again, as the files may have changed; the 100 most recently reviewed
 * merge requests are kept.
 */
export const useViewedFilesStore = defineStore('viewed-files', () => {
  const preferences = usePreferencesStore()

  function viewed(key: ReviewKey): ReadonlySet<string> {
    const entry = preferences.values.viewedFiles.find((e) => sameMergeRequest(e, key) && e.headSha === key.headSha)
    return new Set(entry?.paths ?? [])
  }

  /** Marks (or unmarks) files viewed at once, and stores the marks in core. */
  function setViewed(key: ReviewKey, paths: readonly string[], on: boolean): void {
    const marks = new Set(viewed(key))
    for (const path of paths) {
      if (on) marks.add(path)
      else marks.delete(path)
    }
    const others = preferences.values.viewedFiles.filter((e) => !sameMergeRequest(e, key))
    void preferences.set({
      viewedFiles: [{ ...key, paths: [...marks] }, ...others].slice(0, MAX_VIEWED_MERGE_REQUESTS),
    })
  }

  return { viewed, setViewed }
})
