/**
 * Pages domains (spec "Pages domain"). A plain-HTTP domain (no certificate, none asked of Let's
 * Encrypt) carries only `domain` and `url` (and `project_id` in the instance list).
 */
import { Type, type Static } from 'typebox'
import { Entity, Timestamp } from './common'

/** GitLab's PagesDomain entity (a project's domains). */
export const PagesDomain = Entity({
  domain: Type.String(),
  url: Type.String(),
  auto_ssl_enabled: Type.Optional(Type.Boolean()),
  certificate: Type.Optional(
    Entity({
      subject: Type.String(),
      expired: Type.Boolean(),
      /** PEM. */
      certificate: Type.String(),
      certificate_text: Type.String(),
    }),
  ),
})
export type PagesDomain = Static<typeof PagesDomain>

/** Whether and when a certificate expires. */
export const CertificateExpiration = Entity({ expired: Type.Boolean(), expiration: Timestamp })

/**
 * GitLab's PagesDomainBasic (`GET /pages/domains`, administrators): the certificate's expiry under
 * the spec's `certificate` and GitLab's `certificate_expiration`.
 */
export const PagesDomainBasic = Entity({
  domain: Type.String(),
  url: Type.String(),
  project_id: Type.Integer(),
  auto_ssl_enabled: Type.Optional(Type.Boolean()),
  certificate: Type.Optional(CertificateExpiration),
  certificate_expiration: Type.Optional(CertificateExpiration),
})
export type PagesDomainBasic = Static<typeof PagesDomainBasic>
