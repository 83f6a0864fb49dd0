import type { X509Certificate } from 'node:crypto'
import type { FastifyRequest } from 'fastify'
import {
  hasIntermediates,
  keyMatchesCertificate,
  parseCertificates,
  parsePrivateKey,
} from '../../platform/crypto/certificates'
import { decryptSecret, encryptSecret } from '../../platform/auth/encryption'
import type { ServerContext } from '../../platform/context'
import {
  deletePagesDomain,
  insertPagesDomain,
  pagesDomainTaken,
  updatePagesDomain,
  type PagesDomainChanges,
  type PagesDomainRow,
} from './queries'
import type { ProjectRow } from '../../platform/db/rows'
import { validationFailed } from '../../platform/http/errors'
import { recordProjectChange } from '../projects/changes'

const LABEL = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/i

/** GitLab's hostname rule for Pages domains (numeric labels allowed). */
export function isValidHostname(domain: string): boolean {
  if (domain.length === 0 || domain.length > 253) return false
  return domain.split('.').every((label) => LABEL.test(label))
}

/** The leaf certificate of a stored chain (null for plain-HTTP domains). */
export function leafCertificate(d: PagesDomainRow): X509Certificate | null {
  if (!d.certificate) return null
  return parseCertificates(d.certificate)?.[0] ?? null
}

/** A domain's private key in clear, for whoever serves the site (never for API responses). */
export function pagesDomainKey(ctx: ServerContext, d: PagesDomainRow): string | null {
  return d.encrypted_key ? decryptSecret(ctx.options.dataDir, d.encrypted_key) : null
}

type Errors = Record<string, string[]>

function add(errors: Errors, key: string, message: string): void {
  ;(errors[key] ??= []).push(message)
}

/**
 * GitLab's certificate rules: the certificate parses as PEM X.509 (a chain, most specific
 * first), the chain is complete, the key parses and belongs to the certificate. A key without a
 * certificate, or a certificate without a key, does not match.
 */
function checkCertificate(certificate: string | null, key: string | null, errors: Errors): void {
  const chain = certificate ? parseCertificates(certificate) : null
  if (certificate && !chain) add(errors, 'certificate', 'must be a valid PEM certificate')
  const privateKey = key ? parsePrivateKey(key) : null
  if (key && !privateKey) add(errors, 'key', 'must be a valid PEM private key')
  if (certificate || key) {
    const leaf = chain?.[0]
    if (!leaf || !privateKey || !keyMatchesCertificate(privateKey, leaf))
      add(errors, 'key', "doesn't match the certificate")
  }
  if (chain && !hasIntermediates(chain)) add(errors, 'certificate', 'misses intermediates')
}

function blankToNull(value: string | null | undefined): string | null {
  return value === undefined || value === null || value.trim() === '' ? null : value
}

export interface PagesDomainCreateParams {
  readonly domain: string
  readonly certificate?: string | null
  readonly key?: string | null
  readonly auto_ssl_enabled?: boolean
}

/** Adds a custom domain to the project's Pages site, with the user's certificate when given. */
export function createPagesDomain(
  request: FastifyRequest,
  project: ProjectRow,
  params: PagesDomainCreateParams,
): PagesDomainRow {
  const ctx = request.server.burrow
  const certificate = blankToNull(params.certificate)
  const key = blankToNull(params.key)
  const errors: Errors = {}
  if (!isValidHostname(params.domain)) add(errors, 'domain', 'is not a valid hostname')
  else if (pagesDomainTaken(ctx.db, params.domain)) add(errors, 'domain', 'has already been taken')
  checkCertificate(certificate, key, errors)
  if (Object.keys(errors).length > 0) throw validationFailed(errors)
  return ctx.db.transaction(() => {
    const row = insertPagesDomain(ctx.db, {
      projectId: project.id,
      domain: params.domain,
      certificate,
      encryptedKey: key ? encryptSecret(ctx.options.dataDir, key) : null,
      autoSslEnabled: params.auto_ssl_enabled === true,
    })
    recordProjectChange(request, project, {
      targetType: 'PagesDomain',
      targetId: row.id,
      targetTitle: row.domain,
      audit: {
        add: 'pages_domain',
        custom_message: `Added Pages domain ${row.domain}${certificate ? ' with a certificate' : ''}`,
      },
    })
    return row
  })()
}

export interface PagesDomainUpdateParams {
  readonly certificate?: string | null
  readonly key?: string | null
  readonly auto_ssl_enabled?: boolean
}

/**
 * Updates the certificate, key or automatic certificates. A certificate sent without a key keeps
 * the stored key (it must match the new certificate); empty certificate and key together remove
 * the certificate, as GitLab's API does.
 */
export function updatePagesDomainAttributes(
  request: FastifyRequest,
  project: ProjectRow,
  d: PagesDomainRow,
  params: PagesDomainUpdateParams,
): PagesDomainRow {
  const ctx = request.server.burrow
  const changes: { -readonly [K in keyof PagesDomainChanges]: PagesDomainChanges[K] } = {}
  const touchesCertificate = params.certificate !== undefined || params.key !== undefined
  if (touchesCertificate) {
    const certificate = params.certificate !== undefined ? blankToNull(params.certificate) : d.certificate
    const key = params.key !== undefined ? blankToNull(params.key) : pagesDomainKey(ctx, d)
    const errors: Errors = {}
    checkCertificate(certificate, key, errors)
    if (Object.keys(errors).length > 0) throw validationFailed(errors)
    changes.certificate = certificate
    changes.encrypted_key = key ? encryptSecret(ctx.options.dataDir, key) : null
    changes.certificate_source = 'user_provided'
  }
  if (params.auto_ssl_enabled !== undefined) changes.auto_ssl_enabled = params.auto_ssl_enabled ? 1 : 0
  if (Object.keys(changes).length === 0) return d
  return ctx.db.transaction(() => {
    const updated = updatePagesDomain(ctx.db, d.id, changes)
    const what = touchesCertificate ? (updated.certificate ? 'certificate' : 'certificate removed') : 'auto_ssl_enabled'
    recordProjectChange(request, project, {
      targetType: 'PagesDomain',
      targetId: d.id,
      targetTitle: d.domain,
      audit: { change: what, custom_message: `Updated Pages domain ${d.domain} (${what})` },
    })
    return updated
  })()
}

/** Removes a custom domain. */
export function destroyPagesDomain(request: FastifyRequest, project: ProjectRow, d: PagesDomainRow): void {
  const db = request.server.burrow.db
  db.transaction(() => {
    deletePagesDomain(db, d.id)
    recordProjectChange(request, project, {
      targetType: 'PagesDomain',
      targetId: d.id,
      targetTitle: d.domain,
      audit: { remove: 'pages_domain', custom_message: `Removed Pages domain ${d.domain}` },
    })
  })()
}
