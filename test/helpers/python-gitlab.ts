import { execFile } from 'node:child_process'

/** Debian's python3 with python3-gitlab; plain `python3` on PATH may be another build. */
export const PYTHON = '/usr/bin/python3'

export interface PythonResult {
  readonly code: number
  readonly stdout: string
  readonly stderr: string
}

/** Runs a Python script with the given environment and returns its exit code and output. */
export function runPython(script: string, env: Readonly<Record<string, string>> = {}): Promise<PythonResult> {
  return new Promise((resolve) => {
    const child = execFile(
      PYTHON,
      ['-c', script],
      { env: { ...process.env, ...env }, timeout: 60_000, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0
        resolve({ code, stdout: String(stdout), stderr: String(stderr) })
      },
    )
    child.stdin?.end()
  })
}

/**
 * Runs `body` with python-gitlab connected to `url` (`gl`, using `auth`, a dict of keyword
 * arguments for gitlab.Gitlab such as `{private_token: ...}`), `json` imported, and a helper
 * `out(value)` that prints the value as JSON. Returns what `out` printed, parsed.
 * Throws with Python's stderr when the script fails.
 */
export async function withPythonGitlab<T = unknown>(
  url: string,
  auth: Readonly<Record<string, string>>,
  body: string,
): Promise<T> {
  const script = [
    'import gitlab, json, os, sys',
    'gl = gitlab.Gitlab(os.environ["GL_URL"], **json.loads(os.environ["GL_AUTH"]))',
    'def out(v):',
    '    print(json.dumps(v, default=str))',
    body,
  ].join('\n')
  const result = await runPython(script, { GL_URL: url, GL_AUTH: JSON.stringify(auth) })
  if (result.code !== 0) throw new Error(`python-gitlab script failed (${result.code}):\n${result.stderr}`)
  const lines = result.stdout.trim().split('\n')
  return JSON.parse(lines[lines.length - 1]) as T
}
