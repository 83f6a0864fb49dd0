import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/** A PEM certificate and its PEM private key, made by the system `openssl`. */
export interface TestCertificate {
  readonly certificate: string
  readonly key: string
}

function openssl(dir: string, args: readonly string[]): void {
  execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' })
}

/**
 * A self-signed certificate for `cn` (RSA 2048), valid from `startDays` (may be negative) for
 * `days` days. openssl `-not_before/-not_after` need 3.x; `x509 -days` with a backdated
 * signing date is built with `ca`-less `req -x509` plus `-set_serial`.
 */
export function selfSignedCertificate(
  cn: string,
  options: { readonly days?: number; readonly expired?: boolean } = {},
): TestCertificate {
  const dir = mkdtempSync(join(tmpdir(), 'burrow-cert-'))
  try {
    openssl(dir, ['genrsa', '-out', 'key.pem', '2048'])
    if (options.expired) {
      // A certificate whose validity ended yesterday: sign with explicit dates through `ca`.
      openssl(dir, ['req', '-new', '-key', 'key.pem', '-subj', `/O=Burrow Test/CN=${cn}`, '-out', 'req.csr'])
      writeFileSync(join(dir, 'index.txt'), '')
      writeFileSync(join(dir, 'serial'), '01\n')
      writeFileSync(
        join(dir, 'ca.cnf'),
        [
          '[ca]',
          'default_ca = test',
          '[test]',
          'database = index.txt',
          'serial = serial',
          'new_certs_dir = .',
          'default_md = sha256',
          'policy = any',
          'unique_subject = no',
          '[any]',
          'commonName = supplied',
          'organizationName = optional',
        ].join('\n'),
      )
      const start = new Date(Date.now() - 10 * 86400_000)
      const end = new Date(Date.now() - 86400_000)
      const stamp = (d: Date): string => d.toISOString().replace(/[-:T]/g, '').slice(0, 14) + 'Z'
      openssl(dir, [
        'ca',
        '-batch',
        '-config',
        'ca.cnf',
        '-selfsign',
        '-keyfile',
        'key.pem',
        '-in',
        'req.csr',
        '-out',
        'cert.pem',
        '-notext',
        '-startdate',
        stamp(start),
        '-enddate',
        stamp(end),
      ])
    } else {
      openssl(dir, [
        'req',
        '-x509',
        '-new',
        '-key',
        'key.pem',
        '-subj',
        `/O=Burrow Test/CN=${cn}`,
        '-days',
        String(options.days ?? 365),
        '-out',
        'cert.pem',
      ])
    }
    return { certificate: readFileSync(join(dir, 'cert.pem'), 'utf8'), key: readFileSync(join(dir, 'key.pem'), 'utf8') }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** A leaf certificate for `cn` signed by a fresh intermediate CA; `chain` is leaf then CA, as Pages expects. */
export function chainedCertificate(
  cn: string,
): TestCertificate & { readonly chain: string; readonly caCertificate: string } {
  const dir = mkdtempSync(join(tmpdir(), 'burrow-chain-'))
  try {
    openssl(dir, ['genrsa', '-out', 'ca.key', '2048'])
    openssl(dir, [
      'req',
      '-x509',
      '-new',
      '-key',
      'ca.key',
      '-subj',
      '/O=Burrow Test/CN=Burrow Test CA',
      '-days',
      '30',
      '-out',
      'ca.pem',
    ])
    openssl(dir, ['genrsa', '-out', 'leaf.key', '2048'])
    openssl(dir, ['req', '-new', '-key', 'leaf.key', '-subj', `/O=Burrow Test/CN=${cn}`, '-out', 'leaf.csr'])
    openssl(dir, [
      'x509',
      '-req',
      '-in',
      'leaf.csr',
      '-CA',
      'ca.pem',
      '-CAkey',
      'ca.key',
      '-set_serial',
      '2',
      '-days',
      '30',
      '-out',
      'leaf.pem',
    ])
    const leaf = readFileSync(join(dir, 'leaf.pem'), 'utf8')
    const ca = readFileSync(join(dir, 'ca.pem'), 'utf8')
    return { certificate: leaf, key: readFileSync(join(dir, 'leaf.key'), 'utf8'), chain: leaf + ca, caCertificate: ca }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
