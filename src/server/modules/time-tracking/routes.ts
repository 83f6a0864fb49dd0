import * as Api from '../../../shared/api/index'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyRequest } from 'fastify'
import { callerOf } from '../../platform/caller'
import { badRequest, missingParam, validationFailed } from '../../platform/http/errors'
import { given, paramsOf, PathParams } from '../../platform/http/loose-params'
import { textParam } from '../../platform/http/text-param'
import { parseHumanDuration } from './durations'
import { addSpentTime, resetSpentTime, resetTimeEstimate, setTimeEstimate, timeStats, type Trackable } from './service'

/** Loads the trackable a URL names, throwing 404 when the caller cannot read it (and 403 when `write` and they may not track its time). */
export type TrackableResolver = (request: FastifyRequest, params: PathParams, access: 'read' | 'write') => Trackable

/**
 * The duration of a time tracking call, as GitLab's shared time tracking endpoints read it: absent
 * is Grape's `duration is missing`, anything but text `duration is invalid`; text GitLab's
 * duration parser cannot read is null (then each endpoint answers as its model would).
 */
function durationParam(body: unknown): number | null {
  const raw = paramsOf(body).duration
  if (raw === undefined) throw missingParam('duration')
  if (raw === null) return null
  return parseHumanDuration(textParam('duration', raw))
}

/**
 * The five time tracking endpoints under `base` (`/projects/:id/issues/:issue_iid`,
 * `/projects/:id/merge_requests/:merge_request_iid`), one implementation for both kinds as in
 * GitLab (API::TimeTrackingEndpoints): the same checks and the same answers to bad input.
 */
export function timeTrackingRoutes(base: string, resolve: TrackableResolver): FastifyPluginAsyncTypebox {
  return async (app) => {
    const schema = { params: PathParams, response: { 200: Api.TimeStats } }

    app.get(`${base}/time_stats`, { schema }, async (request) => {
      const t = resolve(request, request.params, 'read')
      return timeStats(request.server.burrow.db, t.type, t.id)
    })

    // An unreadable or negative estimate is refused before the model sees it: 400 with GitLab's reason.
    app.post(`${base}/time_estimate`, { schema }, async (request, reply) => {
      const t = resolve(request, request.params, 'write')
      const seconds = durationParam(request.body)
      if (seconds === null || seconds < 0)
        throw badRequest('Time estimate must have a valid format and be greater than or equal to zero.')
      return reply.code(200).send(setTimeEstimate(callerOf(request), t, seconds))
    })

    app.post(`${base}/reset_time_estimate`, { schema }, async (request, reply) => {
      const t = resolve(request, request.params, 'write')
      return reply.code(200).send(resetTimeEstimate(callerOf(request), t))
    })

    // GitLab parses spent time without keeping zero: an unreadable or zero duration makes a time
    // log without time, which its validation refuses.
    app.post(
      `${base}/add_spent_time`,
      { schema: { params: PathParams, response: { 201: Api.TimeStats } } },
      async (request, reply) => {
        const t = resolve(request, request.params, 'write')
        const body = paramsOf(request.body)
        const seconds = durationParam(request.body)
        if (seconds === null || seconds === 0) throw validationFailed({ 'timelogs.time_spent': ["can't be blank"] })
        const summary = given(body.summary) ? textParam('summary', body.summary) : null
        return reply.code(201).send(addSpentTime(callerOf(request), t, seconds, summary))
      },
    )

    app.post(`${base}/reset_spent_time`, { schema }, async (request, reply) => {
      const t = resolve(request, request.params, 'write')
      return reply.code(200).send(resetSpentTime(callerOf(request), t))
    })
  }
}
