#!/usr/bin/env node
// Draws resources/icon.png (256 px, the window's), resources/icon-1024.png (electron-builder makes
// the installers' icon sets from it) and resources/tray.png (32 px): a burrow entrance on a
// rounded square. Plain zlib PNG encoding, no dependencies; run again after changing shapes.
import { writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { deflateSync } from 'node:zlib'

const out = join(dirname(fileURLToPath(import.meta.url)), '..', 'resources')

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
  return c >>> 0
})
function crc32(buf) {
  let c = 0xffffffff
  for (const b of buf) c = crcTable[(c ^ b) & 0xff] ^ (c >>> 8)
  return (c ^ 0xffffffff) >>> 0
}
function chunk(type, data) {
  const len = Buffer.alloc(4)
  len.writeUInt32BE(data.length)
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data])
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(crc32(body))
  return Buffer.concat([len, body, crc])
}

/** RGBA pixel of the icon at (x, y) in unit coordinates [0, 1). */
function pixel(x, y) {
  const r = 0.22
  const cx = Math.min(Math.max(x, r), 1 - r)
  const cy = Math.min(Math.max(y, r), 1 - r)
  if ((x - cx) ** 2 + (y - cy) ** 2 > r * r) return [0, 0, 0, 0]
  // the entrance: a half disc resting on the ground line
  const dx = x - 0.5
  const dy = y - 0.72
  if (dy <= 0 && dx * dx + dy * dy < 0.33 * 0.33) {
    const eye = (ex) => (x - ex) ** 2 + (y - 0.55) ** 2 < 0.045 ** 2
    return eye(0.41) || eye(0.59) ? [244, 227, 200, 255] : [43, 29, 20, 255]
  }
  if (y > 0.72) return [86, 62, 44, 255]
  return [107, 79, 58, 255]
}

function png(size) {
  const rows = []
  for (let y = 0; y < size; y++) {
    const row = Buffer.alloc(1 + size * 4)
    for (let x = 0; x < size; x++) {
      // 4x4 supersampling keeps small sizes smooth
      const acc = [0, 0, 0, 0]
      for (let sy = 0; sy < 4; sy++)
        for (let sx = 0; sx < 4; sx++) {
          const p = pixel((x + (sx + 0.5) / 4) / size, (y + (sy + 0.5) / 4) / size)
          for (let i = 0; i < 3; i++) acc[i] += p[i] * p[3]
          acc[3] += p[3]
        }
      const a = acc[3] / 16
      for (let i = 0; i < 3; i++) row[1 + x * 4 + i] = acc[3] ? Math.round(acc[i] / acc[3]) : 0
      row[1 + x * 4 + 3] = Math.round(a)
    }
    rows.push(row)
  }
  const ihdr = Buffer.alloc(13)
  ihdr.writeUInt32BE(size, 0)
  ihdr.writeUInt32BE(size, 4)
  ihdr[8] = 8 // bit depth
  ihdr[9] = 6 // RGBA
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
  return Buffer.concat([
    signature,
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.concat(rows), { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ])
}

writeFileSync(join(out, 'icon.png'), png(256))
writeFileSync(join(out, 'icon-1024.png'), png(1024))
writeFileSync(join(out, 'tray.png'), png(32))
writeFileSync(join(out, 'tray@2x.png'), png(64))
console.log('wrote resources/icon.png, icon-1024.png, tray.png, tray@2x.png')
