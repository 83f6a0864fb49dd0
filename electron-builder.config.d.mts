// Types of electron-builder.config.mjs, for the tests that import it.
import type { Configuration } from 'app-builder-lib'

export declare function builderConfig(env: Record<string, string | undefined>): Configuration

declare const config: Configuration
export default config
