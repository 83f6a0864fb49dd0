import { answerHighlightRequest, type DiffHighlightRequest } from './diff-highlighter'

/**
 * The diff highlighting worker (lib/diff-highlighter.ts): highlight.js tokenizes a file's diff
 * here, off the renderer's main thread, and the HTML lines go back to the page.
 */
addEventListener('message', (event: MessageEvent<DiffHighlightRequest>) => {
  postMessage(answerHighlightRequest(event.data))
})
