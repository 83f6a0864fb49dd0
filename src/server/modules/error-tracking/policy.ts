import { AccessLevel } from '../../platform/auth/access'

/**
 * The role integrated error tracking asks for: its setting and client keys are GitLab's
 * `admin_operations`, a Maintainer ability; a Developer reading them is refused 403.
 */
export const ERROR_TRACKING_ACCESS = AccessLevel.MAINTAINER
