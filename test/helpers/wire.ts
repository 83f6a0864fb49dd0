import type { CachedKind, CachedWire } from '../../src/shared/ipc/cache'

/** Every field optional, all the way down. */
type DeepPartial<T> = T extends readonly (infer E)[]
  ? readonly DeepPartial<E>[]
  : T extends object
    ? { readonly [P in keyof T]?: DeepPartial<T[P]> }
    : T

/**
 * Test data standing for a cached object of `kind` (what a fake bridge answers with): only the
 * fields the code under test reads. The one place tests take a partial object as the wire type.
 */
export function wire<K extends CachedKind>(_kind: K, fields: DeepPartial<CachedWire[K]>): CachedWire[K] {
  return fields as CachedWire[K]
}
