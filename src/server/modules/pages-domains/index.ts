// Pages domains' public face: the seed adds the demo's domains, and whoever serves a site reads its key.
export { createPagesDomain, pagesDomainKey } from './service'
