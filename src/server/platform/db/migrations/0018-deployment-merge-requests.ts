/**
 * Which merge requests each successful deployment shipped (GitLab's deployment_merge_requests),
 * and which deployments have been examined for that: links are made the first time a list or a
 * merge request needs them, from the commits between a deployment and the environment's previous
 * one (`services/deployment-merge-requests.ts`).
 */
export default {
  version: 18,
  name: 'deployment_merge_requests',
  sql: `
CREATE TABLE deployment_merge_requests (
  deployment_id INTEGER NOT NULL REFERENCES deployments(id) ON DELETE CASCADE,
  merge_request_id INTEGER NOT NULL REFERENCES merge_requests(id) ON DELETE CASCADE,
  PRIMARY KEY (deployment_id, merge_request_id)
);
CREATE INDEX deployment_merge_requests_mr ON deployment_merge_requests(merge_request_id);

CREATE TABLE deployment_links_made (
  deployment_id INTEGER PRIMARY KEY REFERENCES deployments(id) ON DELETE CASCADE,
  created_at TEXT NOT NULL
);
`,
}
