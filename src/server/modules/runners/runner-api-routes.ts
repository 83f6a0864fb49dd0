import * as Api from '../../../shared/api/index'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { callerOf } from '../../platform/caller'
import { forbidden } from '../../platform/http/errors'
import { NewRunnerParams, newRunnerAttributes, RunnerInfoParam, runnerInfo } from './params'
import { touchRunner } from './queries'
import { authenticateRunner, newAuthenticationToken, registerRunner, unregisterRunner } from './service'

const TokenBody = Type.Object({ token: Type.String() })
const RegisterBody = Type.Object({ token: Type.String(), info: RunnerInfoParam, ...NewRunnerParams })

/**
 * The runner API's own half (the job cycle is the pipelines module's): registration (`POST
 * /runners` with a registration token), token verification and reset, unregistration.
 */
const runnerApi: FastifyPluginAsyncTypebox = async (app) => {
  const ctx = app.burrow

  app.post(
    '/runners',
    { schema: { body: RegisterBody, response: { 201: Api.RegisteredRunner } } },
    async (request, reply) => {
      const b = request.body
      const registered = registerRunner(callerOf(request), {
        ...newRunnerAttributes(b),
        token: b.token,
        info: runnerInfo(request.ip, b.info),
      })
      if (!registered) throw forbidden()
      return reply.code(201).send({ id: registered.runner.id, token: registered.token, token_expires_at: null })
    },
  )

  app.delete('/runners', { schema: { body: TokenBody } }, async (request, reply) => {
    const runner = authenticateRunner(ctx.db, request.body.token)
    unregisterRunner(callerOf(request), runner)
    return reply.code(204).send()
  })

  app.post(
    '/runners/verify',
    { schema: { body: Type.Object({ token: Type.String(), system_id: Type.Optional(Type.String()) }) } },
    async (request, reply) => {
      const runner = authenticateRunner(ctx.db, request.body.token)
      touchRunner(ctx.db, runner.id, { ip_address: request.ip })
      return reply.code(200).send(200)
    },
  )

  app.post(
    '/runners/reset_authentication_token',
    { schema: { body: TokenBody, response: { 201: Api.RunnerToken } } },
    async (request, reply) => {
      const runner = authenticateRunner(ctx.db, request.body.token)
      return reply.code(201).send({ token: newAuthenticationToken(ctx.db, runner), token_expires_at: null })
    },
  )
}

export default runnerApi
