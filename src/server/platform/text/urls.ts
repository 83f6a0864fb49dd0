/** True when `text` is an absolute http(s) URL with a host (GitLab's addressable_url / public_url checks). */
export function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text)
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== ''
  } catch {
    return false
  }
}
