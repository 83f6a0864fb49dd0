import { afterEach, describe, expect, it, vi } from 'vitest'
import { perfEnd, perfPending, perfStart, PERF } from '../../../src/renderer/lib/perf'
import { expectLabel, noteShownLabels } from '../../../src/renderer/lib/label-feedback'

const measures = (name: string) => performance.getEntriesByName(name, 'measure') as PerformanceMeasure[]

/** Animation frames run by hand: `frame()` runs the callbacks asked for so far. */
function stubFrames(): { frame: () => void } {
  let callbacks: FrameRequestCallback[] = []
  vi.stubGlobal('requestAnimationFrame', (cb: FrameRequestCallback) => callbacks.push(cb))
  return {
    frame: () => {
      const now = callbacks
      callbacks = []
      for (const cb of now) cb(performance.now())
    },
  }
}
const nextMessage = () =>
  new Promise<void>((resolve) => {
    const channel = new MessageChannel()
    channel.port1.onmessage = () => {
      channel.port1.close()
      resolve()
    }
    channel.port2.postMessage(null)
  })

afterEach(() => {
  vi.unstubAllGlobals()
  performance.clearMarks()
  performance.clearMeasures()
})

describe('perf measures (read by npm run bench -- ui)', () => {
  it('end in a task of their own after the next animation frame, not before it', async () => {
    const { frame } = stubFrames()
    perfStart(PERF.searchResults)
    perfEnd(PERF.searchResults, { hits: 3 })
    await nextMessage()
    expect(measures(PERF.searchResults)).toHaveLength(0)
    frame()
    expect(measures(PERF.searchResults)).toHaveLength(0)
    await nextMessage()
    const [measure] = measures(PERF.searchResults)
    expect(measure.detail).toEqual({ hits: 3 })
    expect(perfPending(PERF.searchResults)).toBe(false)
  })

  it('the label feedback measure starts when the label was picked, not when the write is built', async () => {
    const { frame } = stubFrames()
    const pickedAt = performance.now()
    await new Promise((resolve) => setTimeout(resolve, 20))
    expectLabel('acc', 7, 'bug', true, pickedAt)
    // A row still without the label does not end it; one with it does.
    noteShownLabels('acc', { id: 7, labels: [] }, true)
    noteShownLabels('acc', { id: 7, labels: ['bug'] }, true)
    frame()
    await nextMessage()
    const [measure] = measures(PERF.labelFeedback)
    expect(measure.startTime).toBeCloseTo(pickedAt, 3)
    expect(measure.duration).toBeGreaterThanOrEqual(19)
    expect(measure.detail).toEqual({ pending: true })
  })
})
