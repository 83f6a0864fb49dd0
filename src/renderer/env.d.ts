/// <reference types="vite/client" />
import type { BurrowBridge } from '../shared/ipc/contract'

declare module '*.vue' {
  import type { DefineComponent } from 'vue'
  const component: DefineComponent<object, object, unknown>
  export default component
}

declare global {
  interface Window {
    /** Set by the preload in Electron; absent in browser mode. */
    readonly burrow?: BurrowBridge
  }
}
