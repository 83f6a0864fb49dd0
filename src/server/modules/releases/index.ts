/** The releases module's public face: what other modules may use. */
export { tagReleases } from './service'
