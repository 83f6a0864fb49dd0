/**
 * Which language a file is written in, by its name, for the languages breakdown: programming and
 * markup languages only (as GitLab's bar shows them), so prose and data (Markdown, JSON, YAML) and
 * vendored or generated trees do not count.
 */

const BY_EXTENSION: Readonly<Record<string, string>> = {
  rb: 'Ruby',
  js: 'JavaScript',
  mjs: 'JavaScript',
  cjs: 'JavaScript',
  jsx: 'JavaScript',
  ts: 'TypeScript',
  mts: 'TypeScript',
  cts: 'TypeScript',
  tsx: 'TSX',
  vue: 'Vue',
  svelte: 'Svelte',
  py: 'Python',
  go: 'Go',
  rs: 'Rust',
  java: 'Java',
  kt: 'Kotlin',
  kts: 'Kotlin',
  scala: 'Scala',
  groovy: 'Groovy',
  c: 'C',
  h: 'C',
  cc: 'C++',
  cpp: 'C++',
  cxx: 'C++',
  hpp: 'C++',
  cs: 'C#',
  fs: 'F#',
  php: 'PHP',
  swift: 'Swift',
  m: 'Objective-C',
  dart: 'Dart',
  sh: 'Shell',
  bash: 'Shell',
  zsh: 'Shell',
  ps1: 'PowerShell',
  pl: 'Perl',
  lua: 'Lua',
  r: 'R',
  ex: 'Elixir',
  exs: 'Elixir',
  erl: 'Erlang',
  hs: 'Haskell',
  ml: 'OCaml',
  clj: 'Clojure',
  elm: 'Elm',
  tf: 'HCL',
  hcl: 'HCL',
  html: 'HTML',
  htm: 'HTML',
  css: 'CSS',
  scss: 'SCSS',
  sass: 'Sass',
  less: 'Less',
}

const BY_NAME: Readonly<Record<string, string>> = {
  Dockerfile: 'Dockerfile',
  Makefile: 'Makefile',
  GNUmakefile: 'Makefile',
  Rakefile: 'Ruby',
  Gemfile: 'Ruby',
}

/** Trees of other people's or generated code (linguist's vendored list, in short). */
const VENDORED = /(^|\/)(node_modules|vendor|third_party|bower_components|dist)\/|\.min\.(js|css)$/

/** The language of the file at `path`, or null when it does not count. */
export function languageOf(path: string): string | null {
  if (VENDORED.test(path)) return null
  const name = path.slice(path.lastIndexOf('/') + 1)
  const byName = BY_NAME[name]
  if (byName !== undefined) return byName
  const dot = name.lastIndexOf('.')
  if (dot <= 0) return null
  return BY_EXTENSION[name.slice(dot + 1).toLowerCase()] ?? null
}
