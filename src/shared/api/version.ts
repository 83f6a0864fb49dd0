/**
 * `GET /version` and `GET /metadata`: what the instance runs. Answered without credentials, so
 * launchers poll it for readiness.
 */
import { Type, type Static } from 'typebox'
import { Entity, Nullable } from './common'

export const Version = Entity({
  version: Type.String(),
  revision: Type.String(),
  kas: Entity({ enabled: Type.Boolean(), externalUrl: Nullable(Type.String()), version: Nullable(Type.String()) }),
  /** The instance has the enterprise edition's features (epics, audit events…). */
  enterprise: Type.Boolean(),
})
export type Version = Static<typeof Version>
