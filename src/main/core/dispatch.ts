import {
  isRequestChannel,
  type IpcError,
  type IpcResponse,
  type RequestArgs,
  type RequestChannel,
  type RequestResult,
} from '../../shared/ipc/contract'
import { requestValidators } from '../../shared/ipc/request-validators'

/** One async function per request channel: what handlers.ts implements. */
export type IpcHandlers = {
  readonly [C in RequestChannel]: (...args: RequestArgs<C>) => Promise<RequestResult<C>>
}

/** Turns anything thrown by a handler into the `{code, message, details}` that crosses the bridge. */
export function toIpcError(error: unknown): IpcError {
  if (error !== null && typeof error === 'object' && 'code' in error && 'message' in error) {
    const { code, message, details } = error as { code: unknown; message: unknown; details?: unknown }
    if (typeof code === 'string' && typeof message === 'string')
      return details === undefined ? { code, message } : { code, message, details }
  }
  return { code: 'handler-failed', message: error instanceof Error ? error.message : String(error) }
}

/**
 * The single entry point of both transports (Electron IPC and the web host's WebSocket):
 * checks that the channel is in the contract and its arguments are valid, then runs the handler.
 * Never throws; failures come back as `{ok: false, error}`.
 */
export function createDispatcher(handlers: IpcHandlers): (channel: unknown, args: unknown) => Promise<IpcResponse> {
  return async (channel, args) => {
    if (!isRequestChannel(channel)) {
      return { ok: false, error: { code: 'unknown-channel', message: `Unknown channel: ${String(channel)}` } }
    }
    if (!Array.isArray(args)) {
      return { ok: false, error: { code: 'invalid-arguments', message: `${channel}: arguments must be an array` } }
    }
    const problem = requestValidators[channel](args)
    if (problem !== null) {
      return {
        ok: false,
        error: { code: 'invalid-arguments', message: `${channel}: ${problem}`, details: { channel } },
      }
    }
    try {
      // The validator has established that `args` matches this channel's tuple.
      const handler = handlers[channel] as (...a: readonly unknown[]) => Promise<unknown>
      return { ok: true, result: await handler(...args) }
    } catch (error) {
      return { ok: false, error: toIpcError(error) }
    }
  }
}
