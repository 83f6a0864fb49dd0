import type { Version } from '../../../shared/api/version'

/** The GitLab version Burrow Server answers as (clients gate features on it). */
export const BURROW_VERSION = '17.6.0'

/** GitLab's Metadata entity (`/version` and `/metadata`). */
export function versionEntity(): Version {
  return {
    version: BURROW_VERSION,
    revision: 'burrow',
    kas: { enabled: false, externalUrl: null, version: null },
    enterprise: true,
  }
}
