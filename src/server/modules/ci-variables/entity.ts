import type { CiVariableRow } from './queries'

/** GitLab's Ci::Variable entity. */
export function variableEntity(v: CiVariableRow): Readonly<Record<string, unknown>> {
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
