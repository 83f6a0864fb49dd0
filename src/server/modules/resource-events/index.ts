/** The resource events module's public face for other modules: what a moved or cloned issue carries over. */
export { copyIssueResourceEvents, type StateSource } from './queries'
