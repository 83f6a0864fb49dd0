import { afterAll, beforeAll } from 'vitest'
import type { Visibility } from '../../../src/server/platform/db/rows'
import { permissionMatrix, type MatrixRow, type Vars } from './matrix'
import { buildWorld, freshProject, VISIBILITIES, type Container, type Json, type World } from './world'

let world: World
/** What every container's project holds for the reads: an issue with a thread, a label, a milestone. */
const standing = {} as Record<Visibility, Vars>

/** A new issue by the administrator (nobody else is its author) with one note on it. */
async function issueWithNote(w: World, c: Container): Promise<Vars> {
  const issue = await w.admin<Json>('POST', `/projects/${c.project.id}/issues`, { title: 'Matrix issue' })
  const note = await w.admin<Json>('POST', `/projects/${c.project.id}/issues/${issue.iid}/notes`, {
    body: 'Matrix note',
  })
  const discussions = await w.admin<Json[]>('GET', `/projects/${c.project.id}/issues/${issue.iid}/discussions`)
  const award = await w.admin<Json>('POST', `/projects/${c.project.id}/issues/${issue.iid}/award_emoji`, {
    name: 'thumbsup',
  })
  return {
    issue: Number(issue.iid),
    issueId: Number(issue.id),
    note: Number(note.id),
    discussion: String(discussions[0].id),
    award: Number(award.id),
  }
}

const issueFixture = (w: World, c: Container): Promise<Vars> => issueWithNote(w, c)

beforeAll(async () => {
  world = await buildWorld()
  for (const visibility of VISIBILITIES) {
    const c = world.containers[visibility]
    const label = await world.admin<Json>('POST', `/projects/${c.project.id}/labels`, {
      name: 'matrix',
      color: '#428bca',
    })
    const milestone = await world.admin<Json>('POST', `/projects/${c.project.id}/milestones`, {
      title: 'Matrix milestone',
    })
    const groupLabel = await world.admin<Json>('POST', `/groups/${c.group.id}/labels`, {
      name: 'matrix-group',
      color: '#428bca',
    })
    const groupMilestone = await world.admin<Json>('POST', `/groups/${c.group.id}/milestones`, {
      title: 'Matrix group milestone',
    })
    standing[visibility] = {
      ...(await issueWithNote(world, c)),
      label: Number(label.id),
      milestone: Number(milestone.id),
      groupLabel: Number(groupLabel.id),
      groupMilestone: Number(groupMilestone.id),
      target: freshProject(world, c).id,
    }
  }
})
afterAll(async () => world.close())

/** The container's standing resources, for reads and for writes that leave them usable. */
const standingFixture = async (_w: World, c: Container): Promise<Vars> => standing[c.visibility]

const ISSUE = '/projects/{project}/issues/{issue}'

const ISSUES: readonly MatrixRow[] = [
  { method: 'GET', path: '/projects/{project}/issues', min: 'anyone' },
  { method: 'GET', path: '/projects/{project}/issues_statistics', min: 'anyone' },
  { method: 'GET', path: ISSUE, min: 'anyone', fixture: standingFixture },
  {
    method: 'POST',
    path: '/projects/{project}/issues',
    min: 'signedIn',
    body: { title: 'From the matrix' },
    why: 'GitLab does not enforce the Guest role on public and internal projects: any signed-in reader may open an issue',
  },
  { method: 'PUT', path: ISSUE, min: 'reporter', fixture: issueFixture, body: { title: 'Renamed by the matrix' } },
  {
    method: 'PUT',
    path: `${ISSUE}/reorder`,
    min: 'reporter',
    readBack: ISSUE,
    fixture: async (w, c) => ({ ...(await issueWithNote(w, c)), after: standing[c.visibility].issueId }),
    body: (v) => ({ move_after_id: v.after }),
  },
  { method: 'DELETE', path: ISSUE, min: 'owner', fixture: issueFixture },
  // Merge request lists: every merge request call is authenticated (the spec), anonymous gets 401 first.
  {
    method: 'GET',
    path: `${ISSUE}/related_merge_requests`,
    min: 'anyone',
    authenticated: true,
    fixture: standingFixture,
  },
  // Merge request lists: every merge request call is authenticated (the spec), anonymous gets 401 first.
  { method: 'GET', path: `${ISSUE}/closed_by`, min: 'anyone', authenticated: true, fixture: standingFixture },
  { method: 'GET', path: `${ISSUE}/participants`, min: 'anyone', fixture: standingFixture },
  // GitLab's resource event APIs authenticate every call, on public projects too.
  {
    method: 'GET',
    path: `${ISSUE}/resource_label_events`,
    min: 'anyone',
    fixture: standingFixture,
    authenticated: true,
  },
  {
    method: 'GET',
    path: `${ISSUE}/resource_milestone_events`,
    min: 'anyone',
    fixture: standingFixture,
    authenticated: true,
  },
  {
    method: 'GET',
    path: `${ISSUE}/resource_state_events`,
    min: 'anyone',
    fixture: standingFixture,
    authenticated: true,
  },
  { method: 'POST', path: `${ISSUE}/subscribe`, min: 'signedIn', fixture: issueFixture, readBack: ISSUE },
  {
    method: 'POST',
    path: `${ISSUE}/move`,
    min: 'reporter',
    refusal: 400,
    readBack: ISSUE,
    fixture: async (w, c) => ({ ...(await issueWithNote(w, c)), target: standing[c.visibility].target }),
    body: (v) => ({ to_project_id: v.target }),
    why: 'GitLab answers 400 "Cannot move issue due to insufficient permissions!" to a reader without admin_issue on both projects',
  },
  {
    method: 'POST',
    path: `${ISSUE}/clone`,
    min: 'reporter',
    refusal: 400,
    readBack: `/projects/{target}/issues`,
    fixture: async (w, c) => ({ ...(await issueWithNote(w, c)), target: standing[c.visibility].target }),
    body: (v) => ({ to_project_id: v.target }),
    why: 'as moving: 400 "Cannot clone issue due to insufficient permissions!"',
  },
  { method: 'POST', path: `${ISSUE}/todo`, min: 'signedIn', fixture: issueFixture, readBack: ISSUE },
]

const TIME_TRACKING: readonly MatrixRow[] = [
  { method: 'GET', path: `${ISSUE}/time_stats`, min: 'anyone', fixture: standingFixture },
  {
    method: 'POST',
    path: `${ISSUE}/time_estimate`,
    min: 'reporter',
    ok: 200,
    fixture: issueFixture,
    body: { duration: '1h' },
    readBack: `${ISSUE}/time_stats`,
  },
  {
    method: 'POST',
    path: `${ISSUE}/reset_time_estimate`,
    min: 'reporter',
    ok: 200,
    fixture: issueFixture,
    readBack: `${ISSUE}/time_stats`,
  },
  {
    method: 'POST',
    path: `${ISSUE}/add_spent_time`,
    min: 'reporter',
    fixture: issueFixture,
    body: { duration: '1h' },
    readBack: `${ISSUE}/time_stats`,
  },
  {
    method: 'POST',
    path: `${ISSUE}/reset_spent_time`,
    min: 'reporter',
    ok: 200,
    fixture: issueFixture,
    readBack: `${ISSUE}/time_stats`,
  },
]

const NOTES: readonly MatrixRow[] = [
  { method: 'GET', path: `${ISSUE}/notes`, min: 'anyone', fixture: standingFixture },
  { method: 'GET', path: `${ISSUE}/notes/{note}`, min: 'anyone', fixture: standingFixture },
  {
    method: 'POST',
    path: `${ISSUE}/notes`,
    min: 'signedIn',
    fixture: issueFixture,
    body: { body: 'A comment from the matrix' },
  },
  {
    method: 'PUT',
    path: `${ISSUE}/notes/{note}`,
    min: 'admin',
    fixture: issueFixture,
    body: { body: 'Edited by the matrix' },
    why: "only a note's author (and administrators) may edit it, whatever the role",
  },
  {
    method: 'DELETE',
    path: `${ISSUE}/notes/{note}`,
    min: 'maintainer',
    fixture: issueFixture,
    why: "Maintainers remove others' comments (admin_note)",
  },
  { method: 'GET', path: `${ISSUE}/discussions`, min: 'anyone', fixture: standingFixture },
  { method: 'GET', path: `${ISSUE}/discussions/{discussion}`, min: 'anyone', fixture: standingFixture },
  {
    method: 'POST',
    path: `${ISSUE}/discussions`,
    min: 'signedIn',
    fixture: issueFixture,
    body: { body: 'A thread from the matrix' },
  },
  {
    method: 'POST',
    path: `${ISSUE}/discussions/{discussion}/notes`,
    min: 'signedIn',
    fixture: issueFixture,
    body: { body: 'A reply' },
    readBack: `${ISSUE}/discussions/{discussion}`,
  },
  {
    method: 'PUT',
    path: `${ISSUE}/discussions/{discussion}/notes/{note}`,
    min: 'admin',
    fixture: issueFixture,
    body: { body: 'Edited' },
    readBack: `${ISSUE}/discussions/{discussion}`,
    why: "only a note's author (and administrators) may edit it",
  },
  {
    method: 'DELETE',
    path: `${ISSUE}/discussions/{discussion}/notes/{note}`,
    min: 'maintainer',
    fixture: issueFixture,
    readBack: `${ISSUE}/discussions/{discussion}`,
  },
]

const AWARD_EMOJI: readonly MatrixRow[] = [
  { method: 'GET', path: `${ISSUE}/award_emoji`, min: 'anyone', fixture: standingFixture },
  { method: 'GET', path: `${ISSUE}/award_emoji/{award}`, min: 'anyone', fixture: standingFixture },
  { method: 'POST', path: `${ISSUE}/award_emoji`, min: 'signedIn', fixture: issueFixture, body: { name: 'tada' } },
  {
    method: 'DELETE',
    path: `${ISSUE}/award_emoji/{award}`,
    min: 'admin',
    fixture: issueFixture,
    refusal: 401,
    why: 'an award emoji is removed by the user who gave it (and administrators); GitLab answers anyone else 401',
  },
  { method: 'GET', path: `${ISSUE}/notes/{note}/award_emoji`, min: 'anyone', fixture: standingFixture },
  {
    method: 'POST',
    path: `${ISSUE}/notes/{note}/award_emoji`,
    min: 'signedIn',
    fixture: issueFixture,
    body: { name: 'tada' },
  },
]

async function labelFixture(w: World, c: Container): Promise<Vars> {
  const label = await w.admin<Json>('POST', `/projects/${c.project.id}/labels`, {
    name: `fresh-${Math.random().toString(36).slice(2, 8)}`,
    color: '#ff0000',
  })
  return { label: Number(label.id) }
}
async function groupLabelFixture(w: World, c: Container): Promise<Vars> {
  const label = await w.admin<Json>('POST', `/groups/${c.group.id}/labels`, {
    name: `fresh-${Math.random().toString(36).slice(2, 8)}`,
    color: '#ff0000',
  })
  return { groupLabel: Number(label.id) }
}
async function milestoneFixture(w: World, c: Container): Promise<Vars> {
  const milestone = await w.admin<Json>('POST', `/projects/${c.project.id}/milestones`, {
    title: `fresh ${Math.random().toString(36).slice(2, 8)}`,
  })
  return { milestone: Number(milestone.id) }
}
async function groupMilestoneFixture(w: World, c: Container): Promise<Vars> {
  const milestone = await w.admin<Json>('POST', `/groups/${c.group.id}/milestones`, {
    title: `fresh ${Math.random().toString(36).slice(2, 8)}`,
  })
  return { groupMilestone: Number(milestone.id) }
}

const LABELS: readonly MatrixRow[] = [
  { method: 'GET', path: '/projects/{project}/labels', min: 'anyone' },
  { method: 'GET', path: '/projects/{project}/labels/{label}', min: 'anyone', fixture: standingFixture },
  {
    method: 'POST',
    path: '/projects/{project}/labels',
    min: 'reporter',
    body: (_v, u) => ({ name: `label-${u}`, color: '#00ff00' }),
  },
  {
    method: 'PUT',
    path: '/projects/{project}/labels/{label}',
    min: 'reporter',
    fixture: labelFixture,
    body: { description: 'changed' },
  },
  { method: 'DELETE', path: '/projects/{project}/labels/{label}', min: 'reporter', fixture: labelFixture },
  {
    method: 'PUT',
    path: '/projects/{project}/labels/{label}/promote',
    min: 'reporter',
    fixture: labelFixture,
    readBack: '/projects/{project}/labels/{label}',
  },
  {
    method: 'POST',
    path: '/projects/{project}/labels/{label}/subscribe',
    min: 'signedIn',
    fixture: labelFixture,
    readBack: '/projects/{project}/labels/{label}',
  },
  { method: 'GET', path: '/groups/{group}/labels', min: 'anyone' },
  { method: 'GET', path: '/groups/{group}/labels/{groupLabel}', min: 'anyone', fixture: standingFixture },
  {
    method: 'POST',
    path: '/groups/{group}/labels',
    min: 'reporter',
    body: (_v, u) => ({ name: `label-${u}`, color: '#00ff00' }),
  },
  {
    method: 'PUT',
    path: '/groups/{group}/labels/{groupLabel}',
    min: 'reporter',
    fixture: groupLabelFixture,
    body: { description: 'changed' },
  },
  { method: 'DELETE', path: '/groups/{group}/labels/{groupLabel}', min: 'reporter', fixture: groupLabelFixture },
  {
    method: 'POST',
    path: '/groups/{group}/labels/{groupLabel}/subscribe',
    min: 'signedIn',
    fixture: groupLabelFixture,
    readBack: '/groups/{group}/labels/{groupLabel}',
  },
]

const MILESTONES: readonly MatrixRow[] = [
  { method: 'GET', path: '/projects/{project}/milestones', min: 'anyone' },
  { method: 'GET', path: '/projects/{project}/milestones/{milestone}', min: 'anyone', fixture: standingFixture },
  { method: 'GET', path: '/projects/{project}/milestones/{milestone}/issues', min: 'anyone', fixture: standingFixture },
  {
    method: 'GET',
    path: '/projects/{project}/milestones/{milestone}/merge_requests',
    min: 'anyone',
    authenticated: true,
    fixture: standingFixture,
  },
  {
    method: 'POST',
    path: '/projects/{project}/milestones',
    min: 'reporter',
    body: (_v, u) => ({ title: `milestone ${u}` }),
  },
  {
    method: 'PUT',
    path: '/projects/{project}/milestones/{milestone}',
    min: 'reporter',
    fixture: milestoneFixture,
    body: { description: 'changed' },
  },
  {
    method: 'DELETE',
    path: '/projects/{project}/milestones/{milestone}',
    min: 'developer',
    fixture: milestoneFixture,
    why: 'the spec: Developer role needed',
  },
  {
    method: 'GET',
    path: '/projects/{project}/milestones/{milestone}/burndown_events',
    min: 'anyone',
    fixture: standingFixture,
  },
  {
    method: 'POST',
    path: '/projects/{project}/milestones/{milestone}/promote',
    min: 'developer',
    ok: 200,
    fixture: milestoneFixture,
    readBack: '/projects/{project}/milestones/{milestone}',
    why: 'the spec: Developer role in the group',
  },
  { method: 'GET', path: '/groups/{group}/milestones', min: 'anyone' },
  { method: 'GET', path: '/groups/{group}/milestones/{groupMilestone}', min: 'anyone', fixture: standingFixture },
  {
    method: 'GET',
    path: '/groups/{group}/milestones/{groupMilestone}/issues',
    min: 'anyone',
    fixture: standingFixture,
  },
  {
    method: 'POST',
    path: '/groups/{group}/milestones',
    min: 'reporter',
    body: (_v, u) => ({ title: `milestone ${u}` }),
  },
  {
    method: 'PUT',
    path: '/groups/{group}/milestones/{groupMilestone}',
    min: 'reporter',
    fixture: groupMilestoneFixture,
    body: { description: 'changed' },
  },
  {
    method: 'DELETE',
    path: '/groups/{group}/milestones/{groupMilestone}',
    min: 'developer',
    fixture: groupMilestoneFixture,
    why: 'as project milestones (the spec)',
  },
]

permissionMatrix('issues', () => world, ISSUES)
permissionMatrix('time tracking', () => world, TIME_TRACKING)
permissionMatrix('issue notes and discussions', () => world, NOTES)
permissionMatrix('award emoji', () => world, AWARD_EMOJI)
permissionMatrix('labels', () => world, LABELS)
permissionMatrix('milestones', () => world, MILESTONES)
