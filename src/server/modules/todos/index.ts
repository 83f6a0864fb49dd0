/** The to-dos module's public face: what other modules record and resolve. */
export { insertTodoRow, pendingTodosOnFinishedTargets, resolveTodosForTarget } from './queries'
export { mergeRequestTodoEntity } from './entity'
export { createTodo, markTodo, pendingTodoFor } from './service'
export { type TodoRow } from './queries'
