// The CI/CD variables module's public face: the variables a project's jobs receive, and the entity
// and rules group variables share.
export { projectVariables, type CiVariableRow, type VariableFields } from './queries'
export { variableEntity, type VariableView } from './entity'
export { checkVariable } from './service'
export {
  VariableCreateBody,
  VariableFilter,
  VariableUpdateBody,
  changedVariableFields,
  newVariableFields,
} from './params'
