import type { CiVariable } from '../../../shared/api/ci-variable'
import type { CiVariableRow } from './queries'

/** What a variable shows and a job receives, whether it is a project's or a group's. */
export type VariableView = Pick<
  CiVariableRow,
  'variable_type' | 'key' | 'value' | 'protected' | 'masked' | 'raw' | 'environment_scope' | 'description'
>

/** GitLab's Ci::Variable entity (a group's variable shows the same fields). */
export function variableEntity(v: VariableView): CiVariable {
  return {
    variable_type: v.variable_type,
    key: v.key,
    value: v.value,
    hidden: false,
    protected: v.protected === 1,
    masked: v.masked === 1,
    raw: v.raw === 1,
    environment_scope: v.environment_scope,
    description: v.description,
  }
}
