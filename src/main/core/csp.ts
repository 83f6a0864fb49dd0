/**
 * The Content-Security-Policy of every renderer page, in Electron and in browser mode.
 * `style-src 'unsafe-inline'` is there because naive-ui injects its styles at runtime
 * (css-render); scripts stay 'self' only, with no eval.
 */
export function contentSecurityPolicy(extraConnect: readonly string[] = []): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    ["connect-src 'self'", ...extraConnect].join(' '),
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ')
}
