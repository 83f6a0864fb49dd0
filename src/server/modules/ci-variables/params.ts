import { Type, type Static } from 'typebox'
import type { VariableView } from './entity'
import type { VariableFields } from './queries'

/** `filter[environment_scope]`: which of a key's variables a call means. */
export const VariableFilter = Type.Optional(Type.Object({ environment_scope: Type.Optional(Type.String()) }))
const VariableType = Type.Optional(Type.Union([Type.Literal('env_var'), Type.Literal('file')]))

/** The body that adds a CI/CD variable (a project's or a group's). */
export const VariableCreateBody = Type.Object({
  key: Type.String(),
  value: Type.String(),
  variable_type: VariableType,
  protected: Type.Optional(Type.Boolean()),
  masked: Type.Optional(Type.Boolean()),
  raw: Type.Optional(Type.Boolean()),
  environment_scope: Type.Optional(Type.String()),
  description: Type.Optional(Type.Union([Type.String(), Type.Null()])),
})

/** The body that changes a CI/CD variable: what it leaves out keeps its value. */
export const VariableUpdateBody = Type.Object({
  value: Type.Optional(Type.String()),
  variable_type: VariableType,
  protected: Type.Optional(Type.Boolean()),
  masked: Type.Optional(Type.Boolean()),
  raw: Type.Optional(Type.Boolean()),
  environment_scope: Type.Optional(Type.String()),
  description: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  filter: VariableFilter,
})

/** A new variable's fields from its body, with GitLab's defaults. */
export function newVariableFields(b: Static<typeof VariableCreateBody>): VariableFields {
  return {
    key: b.key,
    value: b.value,
    variableType: b.variable_type ?? 'env_var',
    protected: b.protected ?? false,
    masked: b.masked ?? false,
    raw: b.raw ?? false,
    environmentScope: b.environment_scope || '*',
    description: b.description ?? null,
  }
}

/** A variable's fields after a change: the body's where given, the current ones elsewhere. */
export function changedVariableFields(current: VariableView, b: Static<typeof VariableUpdateBody>): VariableFields {
  return {
    key: current.key,
    value: b.value ?? current.value,
    variableType: b.variable_type ?? current.variable_type,
    protected: b.protected ?? current.protected === 1,
    masked: b.masked ?? current.masked === 1,
    raw: b.raw ?? current.raw === 1,
    environmentScope: b.environment_scope || current.environment_scope,
    description: b.description === undefined ? current.description : b.description,
  }
}
