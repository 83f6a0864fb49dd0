import { spawn } from 'node:child_process'

/** Shape of a synthetic repository history. */
export interface HistoryShape {
  readonly files: number
  readonly commits: number
}

function dataBlock(text: string): string {
  return `data ${Buffer.byteLength(text)}\n${text}\n`
}

function filePath(i: number): string {
  // 100 directories of 100 files: a realistic fan-out for a recursive tree listing.
  return `dir-${String(Math.floor(i / 100)).padStart(3, '0')}/file-${String(i).padStart(5, '0')}.txt`
}

function fileContent(i: number, revision: number): string {
  return `file ${i} revision ${revision}\n${'lorem ipsum dolor sit amet '.repeat(3)}\n`
}

/**
 * A `git fast-import` stream for a history of `commits` commits on `refs/heads/main`: the first
 * adds every file, each later one rewrites three files. Generated in memory, imported by one
 * process, so 5k commits take seconds instead of 5k `git commit` runs.
 */
export function fastImportStream(shape: HistoryShape): string {
  const parts: string[] = []
  const t0 = Date.UTC(2020, 0, 1) / 1000
  for (let c = 0; c < shape.commits; c++) {
    const when = `${t0 + c * 3600} +0000`
    const author = `Author ${c % 7} <author${c % 7}@bench.example>`
    parts.push(`commit refs/heads/main\nmark :${c + 1}\nauthor ${author} ${when}\ncommitter ${author} ${when}\n`)
    parts.push(dataBlock(`Commit ${c}\n\nSynthetic history for the repository benchmark.`))
    if (c > 0) parts.push(`from :${c}\n`)
    const changed =
      c === 0
        ? Array.from({ length: shape.files }, (_, i) => i)
        : [(c * 7) % shape.files, (c * 13 + 1) % shape.files, (c * 31 + 2) % shape.files]
    for (const i of changed) parts.push(`M 100644 inline ${filePath(i)}\n${dataBlock(fileContent(i, c))}`)
    parts.push('\n')
  }
  return parts.join('')
}

/** Pipes a fast-import stream into the bare repository `gitDir`. */
export function fastImport(gitDir: string, stream: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', ['fast-import', '--quiet'], {
      env: { ...process.env, GIT_DIR: gitDir, GIT_CONFIG_GLOBAL: '/dev/null' },
      stdio: ['pipe', 'ignore', 'pipe'],
    })
    let stderr = ''
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()))
    child.on('error', reject)
    child.on('close', (code) =>
      code === 0 ? resolve() : reject(new Error(`git fast-import exited ${code}: ${stderr}`)),
    )
    child.stdin.end(stream)
  })
}
