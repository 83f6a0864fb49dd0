import type { ESLint, Rule } from 'eslint'

/** `burrow/layer-imports`: which src/ folders a layer may import from. */
export declare const layerImports: Rule.RuleModule
/** `burrow/server-modules`: the layers inside src/server. */
export declare const serverModules: Rule.RuleModule
declare const plugin: ESLint.Plugin
export default plugin
