/**
 * The to-do badge of the dock (macOS), the launcher (Linux, where the desktop supports it) and the
 * taskbar (Windows). Electron's app badge count does nothing on Windows, whose taskbar shows an
 * overlay icon instead: a red dot drawn here, with the count in its accessible description.
 */

/** The side of the overlay icon, in pixels (Windows draws it at 16×16 on the taskbar button). */
export const BADGE_DOT_SIZE = 16

/** Where the badge goes: Electron's app and the main window, narrowed to what the badge uses. */
export interface BadgeTarget {
  setBadgeCount(count: number): void
  /** A BGRA bitmap of BADGE_DOT_SIZE², or null to clear the overlay. */
  setOverlayIcon(bitmap: Buffer | null, description: string): void
}

/** Shows `count` pending to-dos on the platform's badge; 0 clears it. */
export function showTodoBadge(platform: NodeJS.Platform, count: number, target: BadgeTarget): void {
  const shown = Math.max(0, Math.trunc(count))
  if (platform !== 'win32') {
    target.setBadgeCount(shown)
    return
  }
  if (shown === 0) target.setOverlayIcon(null, '')
  else target.setOverlayIcon(badgeDotBitmap(), shown === 1 ? '1 pending to-do' : `${shown} pending to-dos`)
}

/** A red dot with a white rim on a transparent square, as BGRA pixels (nativeImage.createFromBitmap). */
export function badgeDotBitmap(size = BADGE_DOT_SIZE): Buffer {
  const pixels = Buffer.alloc(size * size * 4)
  const centre = (size - 1) / 2
  const radius = size / 2
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const distance = Math.hypot(x - centre, y - centre)
      if (distance > radius - 0.5) continue
      const rim = distance > radius - 2
      const at = (y * size + x) * 4
      // BGRA: the rim white, the inside GitLab's danger red (#dd2b0e).
      pixels[at] = rim ? 0xff : 0x0e
      pixels[at + 1] = rim ? 0xff : 0x2b
      pixels[at + 2] = rim ? 0xff : 0xdd
      pixels[at + 3] = 0xff
    }
  }
  return pixels
}
