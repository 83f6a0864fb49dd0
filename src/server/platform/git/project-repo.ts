import { existsSync } from 'node:fs'
import { join } from 'node:path'
import type { ServerContext } from '../context'
import type { ProjectRow } from '../db/rows'
import { git } from './git'

/** Absolute path of a project's bare repository (it may not exist yet). */
export function projectGitDir(ctx: ServerContext, project: Pick<ProjectRow, 'id' | 'repository_storage'>): string {
  return ctx.repos.repoPath(project.repository_storage, 'project', project.id)
}

/** True when the project's bare repository exists on disk. */
export function repoExists(gitDir: string): boolean {
  return existsSync(join(gitDir, 'HEAD'))
}

/** Creates the project's bare repository if missing, HEAD on its default branch; returns its path. */
export async function ensureProjectRepo(ctx: ServerContext, project: ProjectRow): Promise<string> {
  const gitDir = projectGitDir(ctx, project)
  await ctx.repos.create(gitDir, project.default_branch ?? ctx.settings.get('default_branch_name'))
  return gitDir
}

/** True when the repository has no commits at all (no refs under refs/heads). */
export async function isEmptyRepo(gitDir: string): Promise<boolean> {
  if (!repoExists(gitDir)) return true
  const out = await git(['for-each-ref', '--count=1', '--format=%(refname)', 'refs/heads/'], { gitDir })
  return out.stdout.length === 0
}
