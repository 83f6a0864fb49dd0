import type { FastifyPluginAsync } from 'fastify'
import version from './version'
import members from './members'
import projects from './projects'
import groups from './groups'
import namespaces from './namespaces'
import events from './events'
import auditEvents from './audit-events'
import users from './users'
import tokens from './tokens'
import applicationSettings from './application-settings'
import labels from './labels'
import milestones from './milestones'
import repository from './repository'
import commits from './commits'
import tags from './tags'

/** Every resource family's route plugin, registered under `/api/v4`. Add new families here. */
export const apiRoutes: readonly FastifyPluginAsync[] = [version, projects, groups, namespaces, events, auditEvents, members, users, tokens, applicationSettings, repository, commits, tags, labels, milestones]
