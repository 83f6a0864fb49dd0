import { rootCertificates } from 'node:tls'
import { describe, expect, it } from 'vitest'
import { trustedRoots, trustSystemStore, type CaStores } from '../../src/main/core/api/tls-fetch'

/*
 * Which roots HTTPS requests trust (core/api/tls-fetch.ts). Node 20, which runs these tests,
 * cannot read the OS trust store; Electron 45's Node can. The runtime with those functions is a
 * stand-in here (FakeCaStores), the Node 20 case the real node:tls.
 */

class FakeCaStores implements CaStores {
  readonly rootCertificates = ['bundled-1', 'bundled-2']
  readonly set: string[][] = []
  getCACertificates(type: 'default' | 'system'): string[] {
    return type === 'default' ? ['bundled-1', 'bundled-2', 'extra-from-env'] : ['os-enterprise-ca', 'bundled-1']
  }
  setDefaultCACertificates(certs: string[]): void {
    this.set.push(certs)
  }
}

describe('trusted roots', () => {
  it('are the runtime’s defaults and the OS store, without duplicates, where the runtime reads the OS store (fake runtime)', () => {
    expect(trustedRoots(new FakeCaStores())).toEqual(['bundled-1', 'bundled-2', 'extra-from-env', 'os-enterprise-ca'])
  })

  it('become the default of every TLS connection there (fake runtime)', () => {
    const stores = new FakeCaStores()
    expect(trustSystemStore(stores)).toBe(true)
    expect(stores.set).toEqual([['bundled-1', 'bundled-2', 'extra-from-env', 'os-enterprise-ca']])
  })

  it('are Node’s bundled roots on Node 20, which cannot read the OS store, and the default stays as it is', () => {
    expect(trustedRoots()).toEqual([...new Set(rootCertificates)])
    expect(trustSystemStore()).toBe(false)
  })
})
