/**
 * The argument checks of the secrets channels (secrets.ts), from TypeBox schemas like every other
 * channel's. Only core imports this module: the page imports secrets.ts for the passphrase's length
 * and never bundles typebox.
 */
import { Type } from 'typebox'
import type { ArgsValidator } from './contract'
import { argumentsCheck, Explained } from './schema-check'
import { PASSPHRASE_MAX, PASSPHRASE_MIN, type SecretsRequests } from './secrets'

/**
 * A passphrase of the encrypted sign-in file. Its length is counted as the page's form counts it
 * (`length`, UTF-16 units), not as `minLength` would (code points).
 */
export const Passphrase = Explained(
  Type.Refine(Type.String(), (p) => p.length >= PASSPHRASE_MIN && p.length <= PASSPHRASE_MAX),
  `must be a string of ${PASSPHRASE_MIN} to ${PASSPHRASE_MAX} characters`,
)

/** The validators of the secrets channels, spread into request-validators.ts. */
export const secretsValidators: { readonly [C in keyof SecretsRequests]: ArgsValidator } = {
  'accounts:secret-storage': argumentsCheck({}),
  'accounts:use-encrypted-file': argumentsCheck({ passphrase: Passphrase }),
}
