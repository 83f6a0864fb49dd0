import { createRouter, createWebHashHistory, type Router, type RouteRecordRaw } from 'vue-router'
import ShellLayout from './components/shell/ShellLayout.vue'
import { perfStart, PERF } from './lib/perf'
import { FAMILIES } from './navigation'
import { useAccountsStore } from './stores/accounts'
import ShellHome from './views/ShellHome.vue'
import WelcomeView from './views/WelcomeView.vue'
import { RESOURCE_FAMILY_KEYS, resourceRoutes } from './views/resource/routes'

declare module 'vue-router' {
  interface RouteMeta {
    /** The header's title. */
    title?: string
    /** The sidebar family this route belongs to (navigation.ts). */
    family?: string
  }
}

/** Families with their own views (the rest show views/FamilyView.vue). */
const BUILT = new Set(['issues', 'merge-requests', 'epics', 'milestones', 'boards', 'todos', 'repositories', 'wiki'])

export const routes: RouteRecordRaw[] = [
  { path: '/welcome', name: 'welcome', component: WelcomeView, meta: { title: 'Welcome' } },
  {
    path: '/',
    component: ShellLayout,
    children: [
      { path: '', name: 'home', component: ShellHome, meta: { title: 'Home' } },
      {
        path: 'accounts',
        name: 'accounts',
        component: () => import('./views/AccountsView.vue'),
        meta: { title: 'Accounts' },
      },
      {
        path: 'accounts/add',
        name: 'account-add',
        component: () => import('./views/AccountAddView.vue'),
        meta: { title: 'Add account' },
      },
      {
        path: 'accounts/:account/sync',
        name: 'account-sync',
        component: () => import('./views/AccountSyncView.vue'),
        meta: { title: 'What to sync' },
      },
      {
        path: 'gallery',
        name: 'gallery',
        component: () => import('./views/GalleryView.vue'),
        meta: { title: 'Component gallery' },
      },
      {
        path: 'issues',
        name: 'issues',
        component: () => import('./views/issue/IssueListView.vue'),
        meta: { title: 'Issues', family: 'issues' },
      },
      {
        path: 'a/:account/projects/:projectId(\\d+)/issues/:iid(-?\\d+)',
        name: 'issue',
        component: () => import('./views/issue/IssueDetailView.vue'),
        meta: { title: 'Issue', family: 'issues' },
      },
      {
        path: 'merge-requests',
        name: 'merge-requests',
        component: () => import('./views/merge-request/MergeRequestListView.vue'),
        meta: { title: 'Merge requests', family: 'merge-requests' },
      },
      {
        path: 'a/:account/projects/:projectId(\\d+)/merge_requests/:iid(-?\\d+)',
        name: 'merge-request',
        component: () => import('./views/merge-request/MergeRequestDetailView.vue'),
        meta: { title: 'Merge request', family: 'merge-requests' },
      },
      {
        path: 'epics',
        name: 'epics',
        component: () => import('./views/epic/EpicListView.vue'),
        meta: { title: 'Epics', family: 'epics' },
      },
      {
        path: 'a/:account/groups/:groupId(\\d+)/epics/:iid(\\d+)',
        name: 'epic',
        component: () => import('./views/epic/EpicDetailView.vue'),
        meta: { title: 'Epic', family: 'epics' },
      },
      {
        path: 'milestones',
        name: 'milestones',
        component: () => import('./views/milestone/MilestoneListView.vue'),
        meta: { title: 'Milestones', family: 'milestones' },
      },
      {
        path: 'a/:account/milestones/:milestoneId(\\d+)',
        name: 'milestone',
        component: () => import('./views/milestone/MilestoneDetailView.vue'),
        meta: { title: 'Milestone', family: 'milestones' },
      },
      {
        path: 'boards',
        name: 'boards',
        component: () => import('./views/board/BoardView.vue'),
        meta: { title: 'Boards', family: 'boards' },
      },
      {
        path: 'todos',
        name: 'todos',
        component: () => import('./views/todo/TodoListView.vue'),
        meta: { title: 'To-dos', family: 'todos' },
      },
      {
        path: 'wiki',
        name: 'wiki',
        component: () => import('./views/wiki/WikiView.vue'),
        meta: { title: 'Wiki', family: 'wiki' },
      },
      {
        path: 'repositories',
        name: 'repositories',
        component: () => import('./views/repository/RepositoryHomeView.vue'),
        meta: { title: 'Repositories', family: 'repositories' },
      },
      // The repository browser: ref and path in the query (both may hold `/`), lib/repository.ts builds these.
      ...(['tree', 'blob', 'blame', 'commits', 'compare'] as const).map((tab) => ({
        path: `a/:account/projects/:projectId(\\d+)/repository/${tab}`,
        name: `repository-${tab}`,
        component: () => import('./views/repository/RepositoryView.vue'),
        meta: { title: 'Repository', family: 'repositories' },
      })),
      {
        path: 'a/:account/projects/:projectId(\\d+)/repository/commit/:sha([0-9a-fA-F]{4,40})',
        name: 'repository-commit',
        component: () => import('./views/repository/RepositoryView.vue'),
        meta: { title: 'Commit', family: 'repositories' },
      },
      {
        path: 'a/:account/projects/:projectId(\\d+)/repository',
        redirect: (to) => ({ name: 'repository-tree', params: to.params }),
      },
      {
        path: 'preferences',
        name: 'preferences',
        component: () => import('./views/PreferencesView.vue'),
        meta: { title: 'Preferences' },
      },
      {
        path: 'outbox',
        name: 'outbox',
        component: () => import('./views/outbox/OutboxView.vue'),
        meta: { title: 'Outbox' },
      },
      {
        path: 'search',
        name: 'search',
        component: () => import('./views/search/SearchView.vue'),
        meta: { title: 'Search' },
      },
      // Admin, CI/CD, Operations, Security, Projects, Groups and Your account: the generic resource panels (resources/).
      ...resourceRoutes,
      // Families whose views are not built yet keep the placeholder (navigation.ts says what each will hold).
      ...FAMILIES.filter((f) => !BUILT.has(f.key) && !RESOURCE_FAMILY_KEYS.has(f.key)).map((f) => ({
        path: f.path.slice(1),
        name: f.key,
        component: () => import('./views/FamilyView.vue'),
        meta: { title: f.label, family: f.key },
      })),
    ],
  },
  { path: '/:unknown(.*)*', redirect: '/' },
]

/**
 * Hash history: the same URLs work from the web host and from Electron's burrow:// origin.
 * Without any account every route leads to the first-run screen, and with one the first-run
 * screen leads home. When the account list cannot be read, the shell opens and says why.
 */
export function createAppRouter(): Router {
  const router = createRouter({ history: createWebHashHistory(), routes })
  // Where the issue list's first-rows measure starts (lib/perf.ts; read by `npm run bench -- ui`).
  router.beforeEach((to) => {
    if (to.name === 'issues') perfStart(PERF.issueListFirstRows)
  })
  router.beforeEach(async (to) => {
    const accounts = useAccountsStore()
    await accounts.ensureLoaded()
    if (!accounts.loaded) return to.name === 'welcome' ? { name: 'home' } : true
    if (accounts.isEmpty && to.name !== 'welcome') return { name: 'welcome' }
    if (!accounts.isEmpty && to.name === 'welcome') return { name: 'home' }
    return true
  })
  return router
}
