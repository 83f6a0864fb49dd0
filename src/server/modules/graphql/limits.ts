import {
  getNamedType,
  GraphQLError,
  isInterfaceType,
  isIntrospectionType,
  isObjectType,
  Kind,
  SchemaMetaFieldDef,
  TypeMetaFieldDef,
  TypeNameMetaFieldDef,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLField,
  type GraphQLNamedType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValidationContext,
  type ValidationRule,
  type ValueNode,
} from 'graphql'
import type { UserRow } from '../../platform/db/rows'
import { MAX_PAGE_SIZE } from './support'

/** GitLab's cap on the query text (GraphqlController::MAX_QUERY_SIZE), in characters. */
export const MAX_QUERY_SIZE = 10_000

/** How deep and how costly one query may be. */
export interface QueryLimits {
  readonly maxDepth: number
  readonly maxComplexity: number
}

/**
 * GitLab's limits by caller (GitlabSchema): anonymous callers get the tightest, signed-in users
 * more, administrators the most complexity.
 */
export function queryLimitsFor(user: UserRow | null): QueryLimits {
  if (!user) return { maxDepth: 15, maxComplexity: 200 }
  return { maxDepth: 20, maxComplexity: user.is_admin ? 300 : 250 }
}

/** Depth and complexity of a selection set, as graphql-ruby's analyzers count them. */
interface Cost {
  readonly depth: number
  readonly complexity: number
}

const NOTHING: Cost = { depth: 0, complexity: 0 }

type Variables = Readonly<Record<string, unknown>> | null

/**
 * Measures operations the way GitLab scores them: every field (each alias separately, each
 * fragment spread where it is used) costs 1 plus its selections; a connection's selections cost
 * 1% more per item it may return (GitLab's BaseResolver multiplier: a full page of 100 doubles
 * them), except when it is looked up by iid. Introspection (`__schema`, `__type` and what they
 * select) counts for depth but not complexity, as graphql-ruby's `count_introspection_fields:
 * false`. Depth counts nested fields. Fragments are measured
 * once and a fragment spread inside itself counts nothing (NoFragmentCyclesRule reports it), so a
 * hostile document cannot make the measuring itself slow.
 */
class QueryMeter {
  private readonly schema: GraphQLSchema
  private readonly fragments = new Map<string, Cost>()
  private readonly measuring = new Set<string>()

  constructor(
    private readonly context: ValidationContext,
    private readonly variables: Variables,
  ) {
    this.schema = context.getSchema()
  }

  operation(node: OperationDefinitionNode): Cost {
    const root =
      node.operation === 'mutation'
        ? this.schema.getMutationType()
        : node.operation === 'subscription'
          ? this.schema.getSubscriptionType()
          : this.schema.getQueryType()
    return this.selections(node.selectionSet, root ?? undefined)
  }

  private selections(set: SelectionSetNode, parent: GraphQLNamedType | undefined): Cost {
    let depth = 0
    let complexity = 0
    for (const selection of set.selections) {
      let cost: Cost
      if (selection.kind === Kind.FIELD) cost = this.field(selection, parent)
      else if (selection.kind === Kind.INLINE_FRAGMENT)
        cost = this.selections(selection.selectionSet, this.typeNamed(selection.typeCondition?.name.value) ?? parent)
      else cost = this.fragment(selection.name.value)
      depth = Math.max(depth, cost.depth)
      complexity += cost.complexity
    }
    return { depth, complexity }
  }

  private field(node: FieldNode, parent: GraphQLNamedType | undefined): Cost {
    const definition = fieldDefinition(this.schema, parent, node.name.value)
    const type = definition ? getNamedType(definition.type) : undefined
    const children = node.selectionSet ? this.selections(node.selectionSet, type) : NOTHING
    // The schema's own description is built once and costs nothing to read: introspection counts
    // for depth only, so tools introspecting anonymously are not refused. Lists nested in lists
    // (`fields { type { fields … } } }`) are refused by graphql-js's MaxIntrospectionDepthRule.
    if (isIntrospection(node.name.value, parent)) return { depth: 1 + children.depth, complexity: 0 }
    const multiplier =
      type && type.name.endsWith('Connection') && !hasArgument(node, 'iid') ? 1 + this.pageSize(node) / 100 : 1
    return { depth: 1 + children.depth, complexity: 1 + Math.floor(children.complexity * multiplier) }
  }

  private fragment(name: string): Cost {
    const known = this.fragments.get(name)
    if (known) return known
    const definition: FragmentDefinitionNode | null | undefined = this.context.getFragment(name)
    if (!definition || this.measuring.has(name)) return NOTHING
    this.measuring.add(name)
    const cost = this.selections(definition.selectionSet, this.typeNamed(definition.typeCondition.name.value))
    this.measuring.delete(name)
    this.fragments.set(name, cost)
    return cost
  }

  /** Items a connection field may return: its `first`/`last`, at most (and by default) a page. */
  private pageSize(node: FieldNode): number {
    const sizes = (node.arguments ?? [])
      .filter((a) => a.name.value === 'first' || a.name.value === 'last')
      .map((a) => this.intValue(a.value))
      .filter((n): n is number => n !== null)
    return Math.min(MAX_PAGE_SIZE, ...sizes.map((n) => Math.max(0, n)))
  }

  private intValue(value: ValueNode): number | null {
    if (value.kind === Kind.INT) return Number(value.value)
    if (value.kind === Kind.VARIABLE) {
      const v = this.variables?.[value.name.value]
      return typeof v === 'number' && Number.isFinite(v) ? v : null
    }
    return null
  }

  private typeNamed(name: string | undefined): GraphQLNamedType | undefined {
    return name === undefined ? undefined : this.schema.getType(name)
  }
}

function fieldDefinition(
  schema: GraphQLSchema,
  parent: GraphQLNamedType | undefined,
  name: string,
): GraphQLField<unknown, unknown> | undefined {
  if (name === TypeNameMetaFieldDef.name) return TypeNameMetaFieldDef
  if (parent === schema.getQueryType()) {
    if (name === SchemaMetaFieldDef.name) return SchemaMetaFieldDef
    if (name === TypeMetaFieldDef.name) return TypeMetaFieldDef
  }
  if (parent && (isObjectType(parent) || isInterfaceType(parent))) return parent.getFields()[name]
  return undefined
}

/** A field that reads the schema itself: `__schema`, `__type`, or any field of an introspection type. */
function isIntrospection(name: string, parent: GraphQLNamedType | undefined): boolean {
  return (
    name === SchemaMetaFieldDef.name ||
    name === TypeMetaFieldDef.name ||
    (parent !== undefined && isIntrospectionType(parent))
  )
}

function hasArgument(node: FieldNode, name: string): boolean {
  return (node.arguments ?? []).some((a) => a.name.value === name)
}

/**
 * A validation rule refusing the operation that will run (the named one, or each when unnamed)
 * when it is deeper or costlier than `limits` allow, with graphql-ruby's messages ("Query has
 * depth of 16, which exceeds max depth of 15", "Query has complexity of 3001, which exceeds max
 * complexity of 200"). `variables` give `first`/`last` passed as variables their values.
 */
export function queryLimitsRule(
  limits: QueryLimits,
  variables: Variables,
  operationName: string | undefined,
): ValidationRule {
  return (context) => {
    const meter = new QueryMeter(context, variables)
    return {
      OperationDefinition(node) {
        if (operationName !== undefined && node.name?.value !== operationName) return false
        const { depth, complexity } = meter.operation(node)
        if (depth > limits.maxDepth)
          context.reportError(
            new GraphQLError(`Query has depth of ${depth}, which exceeds max depth of ${limits.maxDepth}`),
          )
        if (complexity > limits.maxComplexity) {
          context.reportError(
            new GraphQLError(
              `Query has complexity of ${complexity}, which exceeds max complexity of ${limits.maxComplexity}`,
            ),
          )
        }
        return false
      },
    }
  }
}
