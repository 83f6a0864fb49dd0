import type { IconName } from '../components/common/icons'
import { ADMIN_RESOURCES } from './admin'
import { GROUP_RESOURCES } from './group'
import { PERSONAL_RESOURCES } from './personal'
import { PROJECT_RESOURCES } from './project'
import type { ResourceDescription, ResourceFamilyKey } from './types'

export type { ResourceDescription, ResourceFamilyKey } from './types'

/** Every described resource, in the order the families show them. */
export const RESOURCES: readonly ResourceDescription[] = [
  ...ADMIN_RESOURCES,
  ...PROJECT_RESOURCES,
  ...GROUP_RESOURCES,
  ...PERSONAL_RESOURCES,
]

/** The families the resource panels fill, with the route each lives under. */
export const RESOURCE_FAMILIES: readonly {
  readonly key: ResourceFamilyKey
  readonly path: string
  readonly label: string
  readonly icon: IconName
}[] = [
  { key: 'ci-cd', path: '/ci-cd', label: 'CI/CD', icon: 'cicd' },
  { key: 'operations', path: '/operations', label: 'Operations', icon: 'operations' },
  { key: 'security', path: '/security', label: 'Security', icon: 'security' },
  { key: 'projects', path: '/projects', label: 'Projects', icon: 'projects' },
  { key: 'groups', path: '/groups', label: 'Groups', icon: 'groups' },
  { key: 'admin', path: '/admin', label: 'Admin', icon: 'admin' },
  { key: 'account', path: '/account', label: 'Your account', icon: 'user' },
]

/** The resources of a family, in order. */
export function familyResources(family: string): ResourceDescription[] {
  return RESOURCES.filter((r) => r.family === family)
}

/** A resource by family and key, or undefined. */
export function findResource(family: string, key: string): ResourceDescription | undefined {
  return RESOURCES.find((r) => r.family === family && r.key === key)
}
