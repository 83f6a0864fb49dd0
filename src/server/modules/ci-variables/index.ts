// The CI/CD variables module's public face: the variables a project's jobs receive.
export { projectVariables, type CiVariableRow } from './queries'
