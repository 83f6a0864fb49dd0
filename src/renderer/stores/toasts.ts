import { defineStore } from 'pinia'
import { shallowRef } from 'vue'

/** A button on a toast (Undo, Open). */
export interface ToastAction {
  readonly label: string
  readonly run: () => void | Promise<void>
}

export interface Toast {
  readonly id: number
  readonly type: 'success' | 'info' | 'warning' | 'error'
  readonly text: string
  readonly action: ToastAction | null
}

/** How long a toast stays: long enough to read it and reach its button (an undo window of a few seconds). */
const DURATION_MS = { plain: 4000, withAction: 7000, error: 8000 } as const
/** Older toasts make room for new ones beyond this many. */
const MAX_SHOWN = 4

/**
 * Short outcomes the app tells the user about, with an optional action: "Closed #12 · Undo",
 * "Ada mentioned you · Open". `ShellToasts` shows them; each leaves by itself after a while.
 */
export const useToastsStore = defineStore('toasts', () => {
  const toasts = shallowRef<readonly Toast[]>([])
  let next = 0
  const timers = new Map<number, ReturnType<typeof setTimeout>>()

  /** Shows a toast; returns its id (for `dismiss`). */
  function show(type: Toast['type'], text: string, action: ToastAction | null = null): number {
    const toast: Toast = { id: ++next, type, text, action }
    const kept = toasts.value.slice(-(MAX_SHOWN - 1))
    for (const gone of toasts.value.filter((t) => !kept.includes(t))) clearTimer(gone.id)
    toasts.value = [...kept, toast]
    const duration = type === 'error' ? DURATION_MS.error : action !== null ? DURATION_MS.withAction : DURATION_MS.plain
    timers.set(
      toast.id,
      setTimeout(() => dismiss(toast.id), duration),
    )
    return toast.id
  }

  function clearTimer(id: number): void {
    const timer = timers.get(id)
    if (timer !== undefined) clearTimeout(timer)
    timers.delete(id)
  }

  function dismiss(id: number): void {
    clearTimer(id)
    toasts.value = toasts.value.filter((t) => t.id !== id)
  }

  /** Runs a toast's action once and takes the toast away. */
  async function act(id: number): Promise<void> {
    const toast = toasts.value.find((t) => t.id === id)
    dismiss(id)
    await toast?.action?.run()
  }

  return { toasts, show, dismiss, act }
})
