import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import * as Api from '../../../shared/api/index'
import { callerOf } from '../../platform/caller'
import { invalidParam, missingParam, paramError } from '../../platform/http/errors'
import { intListOf } from '../../platform/http/loose-params'
import { currentUser } from '../../platform/http/resolve'
import { applySuggestions, SUGGESTION_MESSAGES } from './service'

const ApplyBody = Type.Object({ commit_message: Type.Optional(Type.String()) })
const BatchBody = Type.Object({
  /** A list, or GitLab's comma-separated text (`"1,2"`). */
  ids: Type.Optional(Type.Union([Type.Array(Type.Integer({ minimum: 1 })), Type.String()])),
  commit_message: Type.Optional(Type.String()),
})

/** The Suggestions API: apply one suggestion, or several in one commit. */
const suggestions: FastifyPluginAsyncTypebox = async (app) => {
  app.put(
    '/suggestions/:id/apply',
    {
      schema: {
        params: Type.Object({ id: Type.Integer() }),
        body: Type.Optional(ApplyBody),
        response: { 200: Api.Suggestion },
      },
    },
    async (request) => {
      currentUser(request)
      const applied = await applySuggestions(
        callerOf(request),
        [request.params.id],
        request.body?.commit_message,
        SUGGESTION_MESSAGES.notFound,
      )
      return applied[0]
    },
  )

  app.put(
    '/suggestions/batch_apply',
    { schema: { body: Type.Optional(BatchBody), response: { 200: Type.Array(Api.Suggestion) } } },
    async (request) => {
      currentUser(request)
      const ids = intListOf('ids', request.body?.ids)
      if (ids === undefined) throw missingParam('ids')
      if (ids.length === 0) throw paramError('ids is empty')
      if (ids.some((id) => id < 1)) throw invalidParam('ids')
      return applySuggestions(callerOf(request), ids, request.body?.commit_message, SUGGESTION_MESSAGES.someNotFound)
    },
  )
}

export default suggestions
