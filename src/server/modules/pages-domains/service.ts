import type { Caller } from '../../platform/caller'
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
  findProjectPagesDomain,
  insertPagesDomain,
  listAllPagesDomains,
  listProjectPagesDomains,
  pagesDomainTaken,
  updatePagesDomain,
  type PagesDomainChanges,
  type PagesDomainRow,
} from './queries'
import type { ProjectRow } from '../../platform/db/rows'
import { FieldErrors, notFound } from '../../platform/http/errors'
import type { Page } from '../../platform/http/pagination'
import { blankToNull } from '../../platform/text/blank'
import { recordProjectChange } from '../projects'

const LABEL = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/i

/** GitLab's hostname rule for Pages domains (numeric labels allowed). */
export function isValidHostname(domain: string): boolean {
  if (domain.length === 0 || domain.length > 253) return false
  return domain.split('.').every((label) => LABEL.test(label))
}

/** A domain's private key in clear, for whoever serves the site (never for API responses). */
export function pagesDomainKey(ctx: ServerContext, d: PagesDomainRow): string | null {
  return d.encrypted_key ? decryptSecret(ctx.options.dataDir, d.encrypted_key) : null
}

/** One page of every domain of the instance, or of the one named (404 when it is not there). */
export function instancePagesDomainsPage(
  caller: Caller,
  domain: string | undefined,
  page: Page,
): { readonly rows: PagesDomainRow[]; readonly total: number } {
  const found = listAllPagesDomains(caller.db, domain, { limit: page.perPage, offset: page.offset })
  if (domain !== undefined && found.rows.length === 0) throw notFound('PagesDomain')
  return found
}

/** One page of the project's domains. */
export function projectPagesDomainsPage(
  caller: Caller,
  project: ProjectRow,
  page: Page,
): { readonly rows: PagesDomainRow[]; readonly total: number } {
  return listProjectPagesDomains(caller.db, project.id, { limit: page.perPage, offset: page.offset })
}

/** The project's domain of this name (any case), or 404. */
export function pagesDomainOf(caller: Caller, project: ProjectRow, domain: string): PagesDomainRow {
  const row = findProjectPagesDomain(caller.db, project.id, domain)
  if (!row) throw notFound('PagesDomain')
  return row
}

/**
 * GitLab's certificate rules: the certificate parses as PEM X.509 (a chain, most specific
 * first), the chain is complete, the key parses and belongs to the certificate. A key without a
 * certificate, or a certificate without a key, does not match.
 */
function checkCertificate(certificate: string | null, key: string | null, errors: FieldErrors): void {
  const chain = certificate ? parseCertificates(certificate) : null
  if (certificate && !chain) errors.add('certificate', 'must be a valid PEM certificate')
  const privateKey = key ? parsePrivateKey(key) : null
  if (key && !privateKey) errors.add('key', 'must be a valid PEM private key')
  if (certificate || key) {
    const leaf = chain?.[0]
    if (!leaf || !privateKey || !keyMatchesCertificate(privateKey, leaf))
      errors.add('key', "doesn't match the certificate")
  }
  if (chain && !hasIntermediates(chain)) errors.add('certificate', 'misses intermediates')
}

export interface PagesDomainCreateParams {
  readonly domain: string
  readonly certificate?: string | null
  readonly key?: string | null
  readonly auto_ssl_enabled?: boolean
}

/** Adds a custom domain to the project's Pages site, with the user's certificate when given. */
export function createPagesDomain(
  caller: Caller,
  project: ProjectRow,
  params: PagesDomainCreateParams,
): PagesDomainRow {
  const ctx = caller.ctx
  const certificate = blankToNull(params.certificate)
  const key = blankToNull(params.key)
  const errors = new FieldErrors()
  if (!isValidHostname(params.domain)) errors.add('domain', 'is not a valid hostname')
  else if (pagesDomainTaken(ctx.db, params.domain)) errors.add('domain', 'has already been taken')
  checkCertificate(certificate, key, errors)
  errors.throwIfAny()
  return ctx.db.transaction(() => {
    const row = insertPagesDomain(ctx.db, {
      projectId: project.id,
      domain: params.domain,
      certificate,
      encryptedKey: key ? encryptSecret(ctx.options.dataDir, key) : null,
      autoSslEnabled: params.auto_ssl_enabled === true,
    })
    recordProjectChange(caller, project, {
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
  caller: Caller,
  project: ProjectRow,
  d: PagesDomainRow,
  params: PagesDomainUpdateParams,
): PagesDomainRow {
  const ctx = caller.ctx
  const changes: { -readonly [K in keyof PagesDomainChanges]: PagesDomainChanges[K] } = {}
  const touchesCertificate = params.certificate !== undefined || params.key !== undefined
  if (touchesCertificate) {
    const certificate = params.certificate !== undefined ? blankToNull(params.certificate) : d.certificate
    const key = params.key !== undefined ? blankToNull(params.key) : pagesDomainKey(ctx, d)
    const errors = new FieldErrors()
    checkCertificate(certificate, key, errors)
    errors.throwIfAny()
    changes.certificate = certificate
    changes.encrypted_key = key ? encryptSecret(ctx.options.dataDir, key) : null
    changes.certificate_source = 'user_provided'
  }
  if (params.auto_ssl_enabled !== undefined) changes.auto_ssl_enabled = params.auto_ssl_enabled ? 1 : 0
  if (Object.keys(changes).length === 0) return d
  return ctx.db.transaction(() => {
    const updated = updatePagesDomain(ctx.db, d.id, changes)
    const what = touchesCertificate ? (updated.certificate ? 'certificate' : 'certificate removed') : 'auto_ssl_enabled'
    recordProjectChange(caller, project, {
      targetType: 'PagesDomain',
      targetId: d.id,
      targetTitle: d.domain,
      audit: { change: what, custom_message: `Updated Pages domain ${d.domain} (${what})` },
    })
    return updated
  })()
}

/** Removes a custom domain. */
export function destroyPagesDomain(caller: Caller, project: ProjectRow, d: PagesDomainRow): void {
  const db = caller.db
  db.transaction(() => {
    deletePagesDomain(db, d.id)
    recordProjectChange(caller, project, {
      targetType: 'PagesDomain',
      targetId: d.id,
      targetTitle: d.domain,
      audit: { remove: 'pages_domain', custom_message: `Removed Pages domain ${d.domain}` },
    })
  })()
}
