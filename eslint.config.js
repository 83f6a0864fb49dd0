// @ts-check
import { builtinModules } from 'node:module'
import js from '@eslint/js'
import tseslint from 'typescript-eslint'
import pluginVue from 'eslint-plugin-vue'
import vueParser from 'vue-eslint-parser'
import burrow from './scripts/eslint/layer-imports.js'

/*
 * Layers (STYLE.md §1, DESIGN.md "Layout"). Bare specifiers go through `no-restricted-imports`,
 * relative paths through `burrow/layer-imports`, which resolves where they land.
 */

const NODE_BUILTINS = ['node:*', ...builtinModules.filter((m) => !m.startsWith('_'))]
/**
 * Packages that only run in Node: never in shared, preload or renderer. TypeBox is not one: it is
 * plain JavaScript, and the wire model in src/shared/api is written with it (DESIGN.md 3a).
 */
const NODE_ONLY = ['ws', 'fastify', 'fastify-plugin', '@fastify/*', 'better-sqlite3', '@napi-rs/keyring', 'tsx']
/** Packages that need a DOM: never in shared, main or server. */
const DOM_ONLY = ['vue', 'vue-router', 'pinia', 'naive-ui', '@vue/*']
const ELECTRON = ['electron', 'electron/*']

/** @param {string[]} names @param {string} why */
function restrict(names, why) {
  return { group: names, message: why }
}

/** @param {Array<{group: string[], message: string}>} patterns */
function noBare(patterns) {
  return ['error', { patterns }]
}

const builtinsRule = restrict(NODE_BUILTINS, 'Node builtins do not belong in this layer (STYLE.md §1).')
const electronRule = restrict(ELECTRON, 'Only src/main/index.ts and src/preload may import electron (STYLE.md §1).')
const nodeOnlyRule = restrict(NODE_ONLY, 'Node-only packages do not belong in this layer (STYLE.md §1).')
const domOnlyRule = restrict(DOM_ONLY, 'DOM/Vue packages belong to src/renderer only (STYLE.md §1).')
/**
 * The IPC argument checks (and the TypeBox schemas they compile from) are core's: the page's layers
 * take channel names from contract.ts and types from the family files.
 */
const checksRule = restrict(
  ['**/shared/ipc/request-validators', '**/shared/ipc/schema-check', '**/shared/ipc/*-schema'],
  'Argument checks run in core (dispatch.ts); the preload and the renderer take channel names from contract.ts.',
)

/** Files allowed to use `any`: generic wrappers that genuinely need it. Keep this short. */
const ANY_ALLOWLIST = ['src/server/fastify.d.ts']

export default tseslint.config(
  {
    ignores: [
      'node_modules/**',
      'out/**',
      'dist/**',
      'coverage/**',
      'test-results/**',
      'playwright-report/**',
      'bench/results/**',
      '.burrow/**',
      '.tmp/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  ...pluginVue.configs['flat/recommended'],
  {
    files: ['**/*.vue'],
    languageOptions: {
      parser: vueParser,
      parserOptions: { parser: tseslint.parser, extraFileExtensions: ['.vue'], sourceType: 'module' },
    },
    // vue-tsc checks names in <script lang="ts">, as tsc does for .ts files, where typescript-eslint turns this off too.
    rules: { 'no-undef': 'off' },
  },
  {
    plugins: { burrow },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { args: 'none', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      // Declaration merging of Fastify's types needs empty interfaces and namespaces.
      '@typescript-eslint/no-empty-object-type': ['error', { allowInterfaces: 'with-single-extends' }],
      // Style-only: visible as a warning, never blocking.
      'no-useless-escape': 'warn',
      // Layout is Prettier's (npm run lint checks it): eslint-plugin-vue's layout rules would fight it.
      'vue/max-attributes-per-line': 'off',
      'vue/singleline-html-element-content-newline': 'off',
      'vue/multiline-html-element-content-newline': 'off',
      'vue/html-self-closing': 'off',
      'vue/html-indent': 'off',
      'vue/html-closing-bracket-newline': 'off',
    },
  },
  { files: ANY_ALLOWLIST, rules: { '@typescript-eslint/no-explicit-any': 'off' } },
  {
    files: ['src/shared/**'],
    rules: {
      'no-restricted-imports': noBare([builtinsRule, electronRule, nodeOnlyRule, domOnlyRule]),
      'burrow/layer-imports': ['error', { allow: ['src/shared'] }],
    },
  },
  {
    files: ['src/renderer/**'],
    rules: {
      'no-restricted-imports': noBare([builtinsRule, electronRule, nodeOnlyRule, checksRule]),
      'burrow/layer-imports': ['error', { allow: ['src/renderer', 'src/shared'] }],
    },
  },
  {
    files: ['src/preload/**'],
    rules: {
      'no-restricted-imports': noBare([builtinsRule, nodeOnlyRule, domOnlyRule, checksRule]),
      'burrow/layer-imports': ['error', { allow: ['src/preload', 'src/shared'] }],
    },
  },
  {
    files: ['src/main/**'],
    rules: {
      'no-restricted-imports': noBare([domOnlyRule]),
      'burrow/layer-imports': ['error', { allow: ['src/main', 'src/shared', 'src/server'] }],
    },
  },
  {
    // After src/main/**: core is the part of main that runs without Electron.
    files: ['src/main/core/**'],
    rules: {
      'no-restricted-imports': noBare([electronRule, domOnlyRule]),
      'burrow/layer-imports': ['error', { allow: ['src/main/core', 'src/shared', 'src/server'] }],
    },
  },
  {
    files: ['src/server/**'],
    rules: {
      'no-restricted-imports': noBare([electronRule, domOnlyRule]),
      'burrow/layer-imports': ['error', { allow: ['src/server', 'src/shared'] }],
      // Issue 8's module shape (index-only imports, services taking a Caller, SQL in queries files).
      'burrow/server-modules': 'error',
      'no-restricted-syntax': [
        'error',
        {
          selector: 'TSAsExpression > TSAsExpression.expression > TSUnknownKeyword.typeAnnotation',
          message: "No 'as unknown as' in the server: type the row from its statement, or narrow with a check.",
        },
      ],
    },
  },
  {
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        URL: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        fetch: 'readonly',
        AbortSignal: 'readonly',
        Buffer: 'readonly',
      },
    },
  },
)
