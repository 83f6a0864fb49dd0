/** Waiting for the screen: the task right after the next frame was rendered. */

/**
 * Runs `done` in a task of its own: a message, which Chromium runs as soon as the current task
 * (from an animation frame callback: that frame's style, layout, paint and commit) is over. A
 * timer would do the same in principle, but Chromium may run the next frame before a timer.
 */
export function nextTask(done: () => void): void {
  if (typeof MessageChannel !== 'function') {
    setTimeout(done, 0)
    return
  }
  const channel = new MessageChannel()
  channel.port1.onmessage = () => {
    channel.port1.close()
    done()
  }
  channel.port2.postMessage(null)
}

/**
 * Runs `done` once, in the task after the next animation frame was rendered; at once where there
 * are no frames. With `atMostMs`, no later than that either: a hidden page renders no frames.
 */
export function afterPaint(done: () => void, atMostMs?: number): void {
  if (typeof requestAnimationFrame !== 'function') {
    setTimeout(done, 0)
    return
  }
  let ran = false
  const once = (): void => {
    if (ran) return
    ran = true
    clearTimeout(timer)
    done()
  }
  const timer = atMostMs === undefined ? undefined : setTimeout(once, atMostMs)
  requestAnimationFrame(() => nextTask(once))
}
