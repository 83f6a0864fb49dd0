import type { X509Certificate } from 'node:crypto'
import type { PagesDomain, PagesDomainBasic } from '../../../shared/api/pages-domain'
import type { PagesDomainRow } from './queries'
import { certificateText, isExpired, oneLineName, parseCertificates } from '../../platform/crypto/certificates'

/** The leaf certificate of a stored chain (null for plain-HTTP domains). */
export function leafCertificate(d: PagesDomainRow): X509Certificate | null {
  if (!d.certificate) return null
  return parseCertificates(d.certificate)?.[0] ?? null
}

function urlOf(d: PagesDomainRow): string {
  return `${d.certificate ? 'https' : 'http'}://${d.domain}`
}

/**
 * A plain-HTTP domain: no certificate and none asked of Let's Encrypt. The spec gives such a
 * domain only `domain` and `url` (and `project_id` in the instance list).
 */
function isPlainHttp(d: PagesDomainRow, leaf: X509Certificate | null): boolean {
  return !(d.certificate && leaf) && d.auto_ssl_enabled !== 1
}

/**
 * GitLab's PagesDomain entity (project views). `leaf` is the parsed first certificate of the
 * stored chain; plain-HTTP domains carry only their name and URL.
 */
export function pagesDomainEntity(d: PagesDomainRow, leaf: X509Certificate | null, now = new Date()): PagesDomain {
  if (isPlainHttp(d, leaf)) return { domain: d.domain, url: urlOf(d) }
  const entity = { domain: d.domain, url: urlOf(d), auto_ssl_enabled: d.auto_ssl_enabled === 1 }
  if (!d.certificate || !leaf) return entity
  const certificate = {
    subject: oneLineName(leaf.subject),
    expired: isExpired(leaf, now),
    certificate: d.certificate,
    certificate_text: certificateText(leaf),
  }
  return { ...entity, certificate }
}

/**
 * GitLab's PagesDomainBasic (the administrators' instance-wide list): the certificate shows only
 * whether and when it expires, under the spec's `certificate` and GitLab's `certificate_expiration`.
 */
export function pagesDomainBasicEntity(
  d: PagesDomainRow,
  leaf: X509Certificate | null,
  now = new Date(),
): PagesDomainBasic {
  if (isPlainHttp(d, leaf)) return { domain: d.domain, url: urlOf(d), project_id: d.project_id }
  const entity = {
    domain: d.domain,
    url: urlOf(d),
    project_id: d.project_id,
    auto_ssl_enabled: d.auto_ssl_enabled === 1,
  }
  if (!d.certificate || !leaf) return entity
  const expiration = { expired: isExpired(leaf, now), expiration: new Date(leaf.validTo).toISOString() }
  return { ...entity, certificate: expiration, certificate_expiration: expiration }
}
