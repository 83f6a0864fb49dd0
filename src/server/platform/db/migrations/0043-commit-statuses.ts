/**
 * External commit statuses (GitLab's GenericCommitStatus): a status that CI outside Burrow posts
 * for a commit is a job of type `external` in stage `external` of one of the commit's pipelines,
 * so it counts in the pipeline's status as GitLab's does. Runners never pick it up, and the jobs
 * API does not list it; it carries the link and description the external system gave.
 */
export default {
  version: 43,
  name: 'commit-statuses',
  sql: `
ALTER TABLE ci_builds ADD COLUMN type TEXT NOT NULL DEFAULT 'build' CHECK (type IN ('build', 'external'));
ALTER TABLE ci_builds ADD COLUMN target_url TEXT;
ALTER TABLE ci_builds ADD COLUMN description TEXT;
CREATE INDEX ci_builds_external ON ci_builds(pipeline_id, name) WHERE type = 'external';
`,
}
