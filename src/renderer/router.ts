import { createRouter, createWebHashHistory, type Router } from 'vue-router'
import ShellHome from './views/ShellHome.vue'

/** Hash history: the same URLs work from the web host and from Electron's burrow:// origin. */
export function createAppRouter(): Router {
  return createRouter({
    history: createWebHashHistory(),
    routes: [{ path: '/', name: 'home', component: ShellHome }],
  })
}
