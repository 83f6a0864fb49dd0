import { describe, expect, it } from 'vitest'
import { BADGE_DOT_SIZE, badgeDotBitmap, showTodoBadge, type BadgeTarget } from '../../src/main/core/shell/badge'

function recorder(): BadgeTarget & { counts: number[]; overlays: { bitmap: Buffer | null; description: string }[] } {
  const counts: number[] = []
  const overlays: { bitmap: Buffer | null; description: string }[] = []
  return {
    counts,
    overlays,
    setBadgeCount: (count) => void counts.push(count),
    setOverlayIcon: (bitmap, description) => void overlays.push({ bitmap, description }),
  }
}

describe('the to-do badge', () => {
  it('counts on the dock and the launcher (macOS, Linux)', () => {
    for (const platform of ['darwin', 'linux'] as const) {
      const target = recorder()
      showTodoBadge(platform, 3, target)
      showTodoBadge(platform, 0, target)
      expect(target.counts).toEqual([3, 0])
      expect(target.overlays).toEqual([])
    }
  })

  it('shows a dot on the Windows taskbar, the count in its description, and clears it at zero', () => {
    const target = recorder()
    showTodoBadge('win32', 4, target)
    showTodoBadge('win32', 1, target)
    showTodoBadge('win32', 0, target)
    expect(target.counts).toEqual([])
    expect(target.overlays.map((o) => o.description)).toEqual(['4 pending to-dos', '1 pending to-do', ''])
    expect(target.overlays[0].bitmap?.length).toBe(BADGE_DOT_SIZE * BADGE_DOT_SIZE * 4)
    expect(target.overlays[2].bitmap).toBeNull()
  })

  it('draws an opaque red dot with a white rim on a transparent square', () => {
    const bitmap = badgeDotBitmap(16)
    const pixel = (x: number, y: number) => [...bitmap.subarray((y * 16 + x) * 4, (y * 16 + x) * 4 + 4)]
    expect(pixel(0, 0)).toEqual([0, 0, 0, 0])
    expect(pixel(8, 8)).toEqual([0x0e, 0x2b, 0xdd, 0xff])
    expect(pixel(8, 1)).toEqual([0xff, 0xff, 0xff, 0xff])
  })
})
