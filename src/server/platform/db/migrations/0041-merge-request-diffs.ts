/**
 * Merge request diff versions (GitLab's `merge_request_diffs`): one row each time a merge
 * request's diff refs change (creation, a push to its source or target branch, a rebase), holding
 * those refs. `real_size` (the number of changed files, a string as GitLab gives it) is filled
 * when first read. Open and closed merge requests of an existing database get one version: their
 * current refs.
 */
export default {
  version: 41,
  name: 'merge-request-diffs',
  sql: `
CREATE TABLE merge_request_diffs (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  merge_request_id INTEGER NOT NULL REFERENCES merge_requests(id) ON DELETE CASCADE,
  head_commit_sha TEXT NOT NULL,
  base_commit_sha TEXT,
  start_commit_sha TEXT,
  state TEXT NOT NULL DEFAULT 'collected',
  real_size TEXT,
  created_at TEXT NOT NULL
);
CREATE INDEX merge_request_diffs_merge_request ON merge_request_diffs(merge_request_id, id);

INSERT INTO merge_request_diffs (merge_request_id, head_commit_sha, base_commit_sha, start_commit_sha, created_at)
  SELECT id, head_sha, base_sha, start_sha, updated_at FROM merge_requests WHERE head_sha IS NOT NULL ORDER BY id;
`,
}
