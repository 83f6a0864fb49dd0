import type { FastifyPluginAsync } from 'fastify'
import { registerReadable } from '../platform/auth/readable'
import { alertsReadable } from './alerts/readable'
import { epicsReadable } from './epics/readable'
import { issuesReadable } from './issues/readable'
import { mergeRequestsReadable } from './merge-requests/readable'
import { milestonesReadable } from './milestones/readable'
import { notesReadable } from './notes/readable'
import { snippetsReadable } from './snippets/readable'
import { registerNoteableKind, registerRefNoteableKind, registerReferenceFamily } from './notes/families'
import { registerNoteSuggestions } from './notes'
import { commitNoteableKind, commitNotesReadable } from './commit-notes'
import { issueNoteableKind, issueReferences } from './issues/noteable'
import { mergeRequestNoteableKind, mergeRequestReferences } from './merge-requests/noteable'
import { snippetNoteableKind } from './snippets/noteable'
import { epicNoteableKind, epicReferences } from './epics/noteable'
import { registerIssueEpics, registerIssueMergeRequests } from './issues'
import { issueEpicsSide } from './epics/issue-side'
import { issueMergeRequestsSide } from './merge-requests/issue-side'
import { registerTagReleases } from './tags'
import { tagReleases } from './releases'
import version from './version/routes'
import members from './members/routes'
import projects from './projects/routes'
import groups from './groups/routes'
import namespaces from './namespaces/routes'
import events from './events/routes'
import auditEvents from './audit-events/routes'
import users from './users/routes'
import tokens from './tokens/routes'
import applicationSettings from './application-settings/routes'
import labels from './labels/routes'
import milestones from './milestones/routes'
import issues from './issues/routes'
import snippets from './snippets/routes'
import notes from './notes/routes'
import repository from './repository/routes'
import commits from './repository/commits-routes'
import commitChanges from './repository/commit-changes-routes'
import tags from './tags/routes'
import branches from './branches/routes'
import protectedBranches from './branches/protected-routes'
import files from './repository/files-routes'
import changelog from './repository/changelog-routes'
import discussions from './notes/discussions-routes'
import todos from './todos/routes'
import mergeRequests from './merge-requests/routes'
import mergeRequestVersions from './merge-requests/versions-routes'
import epics from './epics/routes'
import environments from './environments/routes'
import protectedEnvironments from './environments/protected-routes'
import clusters from './clusters/routes'
import pagesDomains from './pages-domains/routes'
import errorTracking from './error-tracking/routes'
import vulnerabilities from './vulnerabilities/routes'
import dependencies from './dependencies/routes'
import runners from './runners/routes'
import runnerApi from './runners/runner-api-routes'
import runnerJobs from './pipelines/runner-jobs-routes'
import pipelines from './pipelines/routes'
import pipelineSchedules from './pipeline-schedules/routes'
import jobs from './pipelines/jobs-routes'
import ciVariables from './ci-variables/routes'
import ciLint from './ci-lint/routes'
import storageMoves from './storage-moves/routes'
import geoNodes from './geo-nodes/routes'
import imports from './imports/routes'
import resourceEvents from './resource-events/routes'
import releases from './releases/routes'
import boards from './boards/routes'
import wikis from './wikis/routes'
import badges from './badges/routes'
import languages from './languages/routes'
import groupVariables from './group-variables/routes'
import protectedTags from './protected-tags/routes'
import projectUsers from './project-users/routes'
import draftNotes from './draft-notes/routes'
import { noteSuggestions, suggestionRoutes } from './suggestions'
import commitStatuses from './commit-statuses/routes'
import hooks from './hooks/routes'
import search from './search/routes'
import issueLinks from './issues/links-routes'
import forks from './forks/routes'
import { onForkUnlinked, unlinkFork } from './forks'
import { onProjectDeleting } from './projects'
import { closeForkCrossings } from './merge-requests'
import commitNotes from './commit-notes/routes'

/** Every resource family's route plugin, registered under `/api/v4`. Add new families here. */
export const apiRoutes: readonly FastifyPluginAsync[] = [
  version,
  projects,
  groups,
  namespaces,
  events,
  auditEvents,
  members,
  users,
  tokens,
  applicationSettings,
  repository,
  commits,
  commitChanges,
  tags,
  branches,
  protectedBranches,
  files,
  changelog,
  labels,
  milestones,
  issues,
  snippets,
  discussions,
  notes,
  mergeRequests,
  mergeRequestVersions,
  epics,
  todos,
  environments,
  protectedEnvironments,
  clusters,
  pagesDomains,
  errorTracking,
  vulnerabilities,
  dependencies,
  runners,
  runnerApi,
  runnerJobs,
  pipelines,
  pipelineSchedules,
  jobs,
  ciVariables,
  ciLint,
  storageMoves,
  geoNodes,
  imports,
  resourceEvents,
  releases,
  boards,
  wikis,
  badges,
  languages,
  groupVariables,
  protectedTags,
  commitStatuses,
  commitNotes,
  search,
  issueLinks,
  forks,
  projectUsers,
  draftNotes,
  suggestionRoutes,
  hooks,
]

/**
 * Fills the registries with every family's rules: what a list may show of another family's items
 * (platform/auth/readable.ts), the noteable and reference families of notes (notes/families.ts;
 * the notes and discussions routes are built for each noteable kind, in this order, and the
 * discussions routes for commits), the epic and merge request sides of issues (issues/extensions.ts)
 * and the releases of tags (tags/releases.ts). buildApp calls it before the routes are registered.
 */
export function fillRegistries(): void {
  for (const family of [
    issuesReadable,
    mergeRequestsReadable,
    epicsReadable,
    notesReadable,
    milestonesReadable,
    snippetsReadable,
    alertsReadable,
    commitNotesReadable,
  ])
    registerReadable(family)
  for (const kind of [issueNoteableKind, mergeRequestNoteableKind, snippetNoteableKind, epicNoteableKind])
    registerNoteableKind(kind)
  registerRefNoteableKind(commitNoteableKind)
  registerNoteSuggestions(noteSuggestions)
  for (const family of [issueReferences, mergeRequestReferences, epicReferences]) registerReferenceFamily(family)
  registerIssueEpics(issueEpicsSide)
  registerIssueMergeRequests(issueMergeRequestsSide)
  registerTagReleases(tagReleases)
  onForkUnlinked(closeForkCrossings)
  // A deleted fork leaves its network first: its open merge requests into it close.
  onProjectDeleting(unlinkFork)
}
