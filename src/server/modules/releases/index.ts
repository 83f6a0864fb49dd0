/** The releases module's public face: what other modules may use. */
export { tagReleases } from './service'
export { onReleaseChange, type ReleaseChange } from './events'
export type { ReleaseRow } from './queries'
