import { expect } from 'vitest'
import { ROOT_TOKEN, type TestServer } from './server'

/**
 * CI test setup through the public API: projects with a repository, commits of CI
 * configuration (each commit is a push, so it creates a pipeline) and registration tokens.
 */

/** Creates a project (README on main) as `token`; returns its id. */
export async function createProject(
  s: TestServer,
  token: string,
  attrs: Readonly<Record<string, unknown>> = {},
): Promise<number> {
  const res = await s.request(token, {
    method: 'POST',
    url: '/api/v4/projects',
    payload: { name: `ci-${Math.random().toString(36).slice(2, 8)}`, initialize_with_readme: true, ...attrs },
  })
  expect(res.statusCode).toBe(201)
  return res.json().id as number
}

/** Commits files (path → content) to `branch` (created from `startBranch` when given); returns the commit SHA. */
export async function commitFiles(
  s: TestServer,
  token: string,
  projectId: number,
  branch: string,
  files: Readonly<Record<string, string>>,
  options: { readonly message?: string; readonly startBranch?: string } = {},
): Promise<string> {
  const tree = await s.request(token, {
    method: 'GET',
    url: `/api/v4/projects/${projectId}/repository/tree?ref=${encodeURIComponent(options.startBranch ?? branch)}&recursive=true&per_page=100`,
  })
  const existing = new Set(tree.statusCode === 200 ? (tree.json() as { path: string }[]).map((e) => e.path) : [])
  const res = await s.request(token, {
    method: 'POST',
    url: `/api/v4/projects/${projectId}/repository/commits`,
    payload: {
      branch,
      ...(options.startBranch ? { start_branch: options.startBranch } : {}),
      commit_message: options.message ?? 'Update CI',
      actions: Object.entries(files).map(([path, content]) => ({
        action: existing.has(path) ? 'update' : 'create',
        file_path: path,
        content,
      })),
    },
  })
  expect(res.statusCode, res.body).toBe(201)
  return res.json().id as string
}

/** The instance registration token (an application setting, read as root). */
export async function instanceToken(s: TestServer): Promise<string> {
  const res = await s.request(ROOT_TOKEN, { method: 'GET', url: '/api/v4/application/settings' })
  return res.json().runners_registration_token as string
}

/** A project's registration token, through the reset endpoint (Maintainer). */
export async function projectRunnersToken(s: TestServer, token: string, projectId: number): Promise<string> {
  const res = await s.request(token, {
    method: 'POST',
    url: `/api/v4/projects/${projectId}/runners/reset_registration_token`,
  })
  expect(res.statusCode).toBe(201)
  return res.json().token as string
}

/** The project's pipelines, newest first. */
export async function pipelinesOf(
  s: TestServer,
  token: string,
  projectId: number,
  query = '',
): Promise<{ id: number; status: string; ref: string; sha: string; source: string }[]> {
  const res = await s.request(token, { method: 'GET', url: `/api/v4/projects/${projectId}/pipelines${query}` })
  expect(res.statusCode, res.body).toBe(200)
  return res.json()
}

/** A pipeline's jobs as `name → status`. */
export async function jobStatuses(
  s: TestServer,
  token: string,
  projectId: number,
  pipelineId: number,
): Promise<Record<string, string>> {
  const res = await s.request(token, {
    method: 'GET',
    url: `/api/v4/projects/${projectId}/pipelines/${pipelineId}/jobs?per_page=100`,
  })
  expect(res.statusCode, res.body).toBe(200)
  return Object.fromEntries((res.json() as { name: string; status: string }[]).map((j) => [j.name, j.status]))
}
