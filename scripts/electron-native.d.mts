// Types of scripts/electron-native.mjs, for the tests that import it.

export declare const BINDING_ENV: 'BURROW_SQLITE_BINDING'

export interface BindingStamp {
  readonly electron: string
  readonly betterSqlite3: string | null
  readonly platform: string
  readonly arch: string
  readonly abi?: string | null
  readonly ok: boolean
}

export type ElectronSqlitePlan =
  | { readonly action: 'none' }
  | { readonly action: 'use'; readonly binding: string }
  | { readonly action: 'prepare'; readonly dir: string; readonly binding: string }

export declare function electronBindingDir(
  root: string,
  target: { readonly electronVersion: string; readonly platform: string; readonly arch: string },
): string

export declare function electronSqlitePlan(facts: {
  readonly mode: 'electron' | 'browser'
  readonly dir: string
  readonly stamp: BindingStamp | null
  readonly electronVersion: string
  readonly betterSqlite3Version: string | null
  readonly platform: string
  readonly arch: string
}): ElectronSqlitePlan

export declare function electronSqliteFailure(facts: {
  readonly electronVersion: string
  readonly abi: string | null
  readonly dir: string
  readonly reason: string
}): string

export declare function prepareElectronSqlite(options: {
  readonly root: string
  readonly electronVersion: string
  readonly platform?: string
  readonly arch?: string
  readonly mode?: 'electron' | 'browser'
}): Promise<
  | { readonly binding: string | null; readonly error?: undefined }
  | { readonly error: string; readonly binding?: undefined }
>
