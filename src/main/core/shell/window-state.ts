import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { Type, type Static } from 'typebox'
import { schemaGuard } from '../../../shared/ipc/schema-check'

/*
 * The main window's size, position and maximized state, kept across launches in
 * window-state.json (the app's data folder). A position that no display shows any more (a
 * monitor unplugged) is dropped, so the window never opens off screen.
 */

/** A rectangle on the screen, in finite numbers (TypeBox's Number refuses NaN and Infinity). */
export const Rect = Type.Object({ x: Type.Number(), y: Type.Number(), width: Type.Number(), height: Type.Number() })
export type Rect = Static<typeof Rect>

export const WindowState = Type.Object({
  /** The window's bounds when not maximized (Electron's getNormalBounds). */
  bounds: Rect,
  maximized: Type.Boolean(),
})
export type WindowState = Static<typeof WindowState>

/** What to open the window with: no x/y means "centred by the OS". */
export interface WindowPlacement {
  readonly x?: number
  readonly y?: number
  readonly width: number
  readonly height: number
  readonly maximized: boolean
}

export const DEFAULT_SIZE = { width: 1200, height: 800 } as const
export const MIN_SIZE = { width: 640, height: 480 } as const
/** How much of the title bar must be on a display for a saved position to be kept. */
const VISIBLE_EDGE = { width: 100, height: 40 } as const

const isWindowState = schemaGuard(WindowState)

/** The saved state, or null when there is none or it is not one (a hand-edited or truncated file). */
export function readWindowState(file: string): WindowState | null {
  try {
    const state: unknown = JSON.parse(readFileSync(file, 'utf8'))
    return isWindowState(state) ? { bounds: state.bounds, maximized: state.maximized } : null
  } catch {
    return null
  }
}

/** Saves the state through a temporary file, so a crash mid-write leaves the previous one. */
export function writeWindowState(file: string, state: WindowState): void {
  try {
    mkdirSync(dirname(file), { recursive: true })
    writeFileSync(`${file}.tmp`, `${JSON.stringify(state)}\n`)
    renameSync(`${file}.tmp`, file)
  } catch {
    // losing the window's place is not worth an error
  }
}

function overlap(a: Rect, b: Rect): { width: number; height: number } {
  return {
    width: Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x),
    height: Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y),
  }
}

/**
 * Where to open the window given the saved state and the displays' work areas: the saved size
 * (no larger than the biggest display, no smaller than MIN_SIZE) and the saved position when
 * the top of the window is still on a display; the default size, centred, without a saved state.
 */
export function placeWindow(saved: WindowState | null, workAreas: readonly Rect[]): WindowPlacement {
  if (saved === null) return { ...DEFAULT_SIZE, maximized: false }
  const maxWidth = Math.max(MIN_SIZE.width, ...workAreas.map((a) => a.width))
  const maxHeight = Math.max(MIN_SIZE.height, ...workAreas.map((a) => a.height))
  const width = Math.round(Math.min(Math.max(saved.bounds.width, MIN_SIZE.width), maxWidth))
  const height = Math.round(Math.min(Math.max(saved.bounds.height, MIN_SIZE.height), maxHeight))
  const titleBar: Rect = { x: saved.bounds.x, y: saved.bounds.y, width, height: VISIBLE_EDGE.height }
  const onScreen = workAreas.some((area) => {
    const seen = overlap(titleBar, area)
    return seen.width >= VISIBLE_EDGE.width && seen.height >= VISIBLE_EDGE.height
  })
  return onScreen
    ? { x: Math.round(saved.bounds.x), y: Math.round(saved.bounds.y), width, height, maximized: saved.maximized }
    : { width, height, maximized: saved.maximized }
}
