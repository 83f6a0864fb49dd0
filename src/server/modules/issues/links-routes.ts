import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyRequest } from 'fastify'
import { Type } from 'typebox'
import { IssueLink, IssueLinkType, LinkedIssue } from '../../../shared/api/issue-link'
import { callerOf } from '../../platform/caller'
import type { ProjectRow } from '../../platform/db/rows'
import { invalidParam } from '../../platform/http/errors'
import { currentUser, loadProject } from '../../platform/http/resolve'
import { linkIssues, listLinkedIssues, loadIssueLink, presentIssueLink, unlinkIssues } from './links'
import type { IssueRow } from './queries'
import { loadIssue } from './service'

const IssueParams = Type.Object({ id: Type.String(), issue_iid: Type.Integer() })
const LinkParams = Type.Object({ id: Type.String(), issue_iid: Type.Integer(), issue_link_id: Type.Integer() })
// A project id or its URL-encoded path, and an iid, as GitLab's clients send them (numbers or strings).
const CreateBody = Type.Object({
  target_project_id: Type.Union([Type.Integer(), Type.String()]),
  target_issue_iid: Type.Union([Type.Integer(), Type.String()]),
  link_type: Type.Optional(IssueLinkType),
})

/** The project and the readable issue a links route is about. */
function issueOf(request: FastifyRequest, id: string, iid: number): { project: ProjectRow; issue: IssueRow } {
  const project = loadProject(request, id)
  return { project, issue: loadIssue(callerOf(request), project, iid) }
}

function iidOf(raw: number | string): number {
  const iid = Number(raw)
  if (!Number.isSafeInteger(iid) || iid < 1) throw invalidParam('target_issue_iid')
  return iid
}

/** GitLab's issue links API: an issue's related and blocking issues, linked and unlinked. */
const issueLinksRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/projects/:id/issues/:issue_iid/links',
    { schema: { params: IssueParams, response: { 200: Type.Array(LinkedIssue) } } },
    async (request) => {
      const { project, issue } = issueOf(request, request.params.id, request.params.issue_iid)
      return listLinkedIssues(callerOf(request), project, issue) as LinkedIssue[]
    },
  )

  app.get(
    '/projects/:id/issues/:issue_iid/links/:issue_link_id',
    { schema: { params: LinkParams, response: { 200: IssueLink } } },
    async (request) => {
      const { project, issue } = issueOf(request, request.params.id, request.params.issue_iid)
      const caller = callerOf(request)
      return presentIssueLink(caller, project, loadIssueLink(caller, issue, request.params.issue_link_id)) as IssueLink
    },
  )

  app.post(
    '/projects/:id/issues/:issue_iid/links',
    { schema: { params: IssueParams, body: CreateBody, response: { 201: IssueLink } } },
    async (request, reply) => {
      // Writes ask for a signed-in user first (GitLab's authenticate_non_get!).
      currentUser(request)
      const { project, issue } = issueOf(request, request.params.id, request.params.issue_iid)
      const body = request.body
      const target = issueOf(request, String(body.target_project_id), iidOf(body.target_issue_iid))
      const caller = callerOf(request)
      const link = linkIssues(caller, issue, target.issue, body.link_type ?? 'relates_to')
      return reply.code(201).send(presentIssueLink(caller, project, link) as IssueLink)
    },
  )

  app.delete(
    '/projects/:id/issues/:issue_iid/links/:issue_link_id',
    { schema: { params: LinkParams, response: { 200: IssueLink } } },
    async (request) => {
      currentUser(request)
      const { project, issue } = issueOf(request, request.params.id, request.params.issue_iid)
      const caller = callerOf(request)
      const link = loadIssueLink(caller, issue, request.params.issue_link_id)
      const answer = presentIssueLink(caller, project, link) as IssueLink
      unlinkIssues(caller, link)
      return answer
    },
  )
}

export default issueLinksRoutes
