import { resolve } from 'node:path'
import vue from '@vitejs/plugin-vue'
import { defineConfig } from 'electron-vite'

/** `npm run build`: main, preload and renderer for Electron, into out/. */
export default defineConfig({
  main: {
    build: {
      lib: { entry: resolve(import.meta.dirname, 'src/main/index.ts'), formats: ['es'] },
    },
  },
  preload: {
    // Sandboxed preloads must be CommonJS, and can require nothing but electron: the preload imports
    // only channel names from the contract (the argument checks, built with typebox, are core's).
    build: {
      lib: { entry: resolve(import.meta.dirname, 'src/preload/index.ts'), formats: ['cjs'] },
      rolldownOptions: { output: { entryFileNames: '[name].cjs' } },
    },
  },
  renderer: {
    root: resolve(import.meta.dirname, 'src/renderer'),
    plugins: [vue()],
    build: {
      rolldownOptions: { input: resolve(import.meta.dirname, 'src/renderer/index.html') },
      chunkSizeWarningLimit: 2048,
    },
  },
})
