import { AccessLevel } from '../../platform/auth/access'

/** Reading the Security Dashboard (vulnerabilities, findings) and creating a vulnerability: Developer. */
export const SECURITY_READ_ACCESS = AccessLevel.DEVELOPER

/** Changing a vulnerability's state: Maintainer (since GitLab 17.0 Developers no longer may). */
export const SECURITY_ADMIN_ACCESS = AccessLevel.MAINTAINER
