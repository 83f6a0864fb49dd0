import { resolve } from 'node:path'
import vue from '@vitejs/plugin-vue'
import { defineConfig } from 'vite'

/**
 * Builds the renderer alone into out/renderer, for browser mode (`npm run build:renderer`,
 * scripts/start.mjs, the e2e tests). electron.vite.config.ts builds the same renderer for Electron.
 */
export default defineConfig({
  root: resolve(import.meta.dirname, 'src/renderer'),
  base: './',
  plugins: [vue()],
  build: {
    outDir: resolve(import.meta.dirname, 'out/renderer'),
    emptyOutDir: true,
    target: 'chrome120',
    reportCompressedSize: false,
    chunkSizeWarningLimit: 2048,
  },
})
