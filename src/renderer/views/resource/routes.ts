import type { RouteRecordRaw } from 'vue-router'
import { RESOURCE_FAMILIES } from '../../resources/index'

/** The families the resource panels serve (router.ts gives them these routes instead of the placeholder). */
export const RESOURCE_FAMILY_KEYS: ReadonlySet<string> = new Set(RESOURCE_FAMILIES.map((f) => f.key))

/**
 * One route per family: `/admin`, `/admin/users`, `/admin/users/new`, `/admin/users/42`,
 * `/admin/users/42/edit` (ResourcePanelView reads the parameters).
 */
export const resourceRoutes: RouteRecordRaw[] = RESOURCE_FAMILIES.map((f) => ({
  path: `${f.path.slice(1)}/:resource?/:key?/:mode(edit)?`,
  name: f.key,
  component: () => import('./ResourcePanelView.vue'),
  meta: { title: f.label, family: f.key },
}))
