/**
 * GitLab's award emoji names to characters, for the ones people actually award; anything else
 * shows as `:name:` (GitLab accepts hundreds of names, and a full table is not worth shipping).
 */
const EMOJI: Readonly<Record<string, string>> = {
  thumbsup: '👍',
  thumbsdown: '👎',
  '+1': '👍',
  '-1': '👎',
  tada: '🎉',
  heart: '❤️',
  rocket: '🚀',
  eyes: '👀',
  smile: '😄',
  smiley: '😃',
  laughing: '😆',
  confused: '😕',
  thinking: '🤔',
  clap: '👏',
  fire: '🔥',
  white_check_mark: '✅',
  heavy_check_mark: '✔️',
  x: '❌',
  warning: '⚠️',
  bug: '🐛',
  100: '💯',
  pray: '🙏',
  sparkles: '✨',
  star: '⭐',
  muscle: '💪',
  ok_hand: '👌',
  raised_hands: '🙌',
  slight_smile: '🙂',
  cry: '😢',
  joy: '😂',
  hourglass: '⌛',
  construction: '🚧',
}

/** The character for an award emoji name, or `:name:`. */
export function emojiFor(name: string): string {
  return EMOJI[name] ?? `:${name}:`
}

/** Awards grouped by emoji, most awarded first (ties by name), with who gave them. */
export function groupAwards(
  awards: readonly { readonly name: string; readonly user: { readonly username: string } }[],
): { name: string; emoji: string; count: number; users: string[] }[] {
  const byName = new Map<string, string[]>()
  for (const a of awards) byName.set(a.name, [...(byName.get(a.name) ?? []), a.user.username])
  return [...byName.entries()]
    .map(([name, users]) => ({ name, emoji: emojiFor(name), count: users.length, users }))
    .sort((a, b) => b.count - a.count || a.name.localeCompare(b.name))
}
