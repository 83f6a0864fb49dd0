/**
 * Label colours: the API gives a background (`#RRGGBB`, `#RGB`, or a CSS name when created so)
 * and, with `with_labels_details`, a `text_color`. When the text colour is missing we choose the
 * one that reads better on the background, by WCAG contrast.
 */

const NAMED: Readonly<Record<string, string>> = {
  black: '#000000',
  white: '#ffffff',
  red: '#ff0000',
  green: '#008000',
  blue: '#0000ff',
  yellow: '#ffff00',
  orange: '#ffa500',
  purple: '#800080',
  gray: '#808080',
  grey: '#808080',
}

export const DEFAULT_LABEL_COLOR = '#6699cc'
const DARK_TEXT = '#1f1e24'
const LIGHT_TEXT = '#ffffff'

/** `#abc`, `#AABBCC` or a few CSS names → `#aabbcc`; anything else → null. */
export function normalizeHex(color: string | null | undefined): string | null {
  if (!color) return null
  const c = color.trim().toLowerCase()
  if (NAMED[c]) return NAMED[c]
  if (/^#[0-9a-f]{6}$/.test(c)) return c
  if (/^#[0-9a-f]{3}$/.test(c)) return `#${c[1]}${c[1]}${c[2]}${c[2]}${c[3]}${c[3]}`
  return null
}

function luminance(hex: string): number {
  const channel = (i: number): number => {
    const v = parseInt(hex.slice(i, i + 2), 16) / 255
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4
  }
  return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5)
}

/** WCAG contrast ratio between two `#rrggbb` colours (1…21). */
export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x)
  return (hi + 0.05) / (lo + 0.05)
}

/** The colours a label chip uses: the label's background, and its text colour or the better-reading one. */
export function labelColors(
  color: string | null | undefined,
  textColor?: string | null,
): { readonly background: string; readonly text: string } {
  const background = normalizeHex(color) ?? DEFAULT_LABEL_COLOR
  const given = normalizeHex(textColor)
  if (given !== null) return { background, text: given }
  return {
    background,
    text: contrastRatio(background, DARK_TEXT) >= contrastRatio(background, LIGHT_TEXT) ? DARK_TEXT : LIGHT_TEXT,
  }
}

/** `scope::value` labels (GitLab's scoped labels) split at the last `::`; null for an ordinary label. */
export function splitScopedLabel(name: string): { readonly scope: string; readonly value: string } | null {
  const at = name.lastIndexOf('::')
  if (at <= 0 || at + 2 >= name.length) return null
  return { scope: name.slice(0, at), value: name.slice(at + 2) }
}
