import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { withPythonGitlab } from '../helpers/python-gitlab'
import { ROOT_TOKEN, startServer, type ListeningServer } from '../helpers/server'

type Json = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any

describe('quick actions over the wire (python-gitlab)', () => {
  let s: ListeningServer

  beforeAll(async () => {
    s = await startServer()
  })
  afterAll(async () => {
    await s.close()
  })

  it('a note with /weight sets the weight; a note with /merge and the head SHA merges the merge request', async () => {
    const result = await withPythonGitlab<Json>(
      s.url,
      { private_token: ROOT_TOKEN },
      `
project = gl.projects.create({"name": "wire-quick", "initialize_with_readme": True})
issue = project.issues.create({"title": "Weigh me"})
weighed = issue.notes.create({"body": "/weight 5"})
issue = project.issues.get(issue.iid)
project.commits.create({"branch": "feature", "start_branch": "main", "commit_message": "feature",
                        "actions": [{"action": "create", "file_path": "feature.txt", "content": "feature"}]})
mr = project.mergerequests.create({"source_branch": "feature", "target_branch": "main", "title": "Feature"})
import time
for _ in range(100):
    mr = project.mergerequests.get(mr.iid)
    if mr.merge_status != "checking" and mr.merge_status != "unchecked":
        break
    time.sleep(0.05)
merging = mr.notes.create({"body": "Ship it\\n/merge", "merge_request_diff_head_sha": mr.sha})
mr = project.mergerequests.get(mr.iid)
out({"weight": issue.weight, "weigh_summary": weighed.attributes.get("summary"),
     "note_body": merging.body, "changes": merging.attributes.get("commands_changes"),
     "state": mr.state, "sha": mr.sha})
`,
    )
    expect(result.weight).toBe(5)
    expect(result.weigh_summary).toEqual(['Set weight to 5.'])
    expect(result.note_body).toBe('Ship it')
    expect(result.changes).toEqual({ merge: result.sha })
    expect(result.state).toBe('merged')
  })
})
