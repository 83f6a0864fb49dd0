import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs'
import { join } from 'node:path'

/**
 * File modes of a Burrow Server's data directory (the desktop cache closes its own files with
 * the same `restrictDir` and `restrictFile`). The data directory holds the database (CI variables,
 * registration tokens…), the instance key and every repository, so only the account running the
 * server may enter it or read them. Modes are set with chmod after creating, so the process umask
 * never widens them, and set again at every start, so a directory an older server left readable
 * is closed too.
 */

const PRIVATE_DIR = 0o700
const PRIVATE_FILE = 0o600

/** Directories under the data directory that hold secrets or user content. */
const PRIVATE_SUBDIRS = ['repositories', 'secrets']

/** Creates `dir` if needed and makes it the owner's alone (0700). */
export function restrictDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR })
  chmodSync(dir, PRIVATE_DIR)
}

/**
 * Makes `file` readable and writable by its owner alone (0600); with `create`, creates it empty
 * first when missing, so a program that opens it next (SQLite) never makes it with wider modes.
 */
export function restrictFile(file: string, options: { readonly create: boolean }): void {
  if (options.create && !existsSync(file)) closeSync(openSync(file, 'a', PRIVATE_FILE))
  if (existsSync(file)) chmodSync(file, PRIVATE_FILE)
}

/**
 * Creates the data directory if needed and closes it and its secret-holding parts: the directory,
 * `repositories/` and `secrets/` 0700, the instance key 0600. The database files are closed by
 * `openDatabase`.
 */
export function protectDataDir(dataDir: string): void {
  restrictDir(dataDir)
  for (const sub of PRIVATE_SUBDIRS) restrictDir(join(dataDir, sub))
  restrictFile(join(dataDir, 'secrets', 'db_key'), { create: false })
}
