/** The group variables module's public face: the group variables a project's jobs inherit. */
export { inheritedGroupVariables, type GroupVariableRow } from './queries'
