import { buildSchema, type GraphQLSchema } from 'graphql'

/**
 * The part of GitLab's GraphQL schema Burrow Server serves, with GitLab's type, field, argument
 * and enum names so clients written against gitlab.com work unchanged: the current user, projects
 * with their alerts, alert status counts and HTTP integrations, and the alert and integration
 * mutations. Resolvers live in resolvers.ts (root fields) and present.ts (objects).
 */
export const SDL = /* GraphQL */ `
  """
  Time in ISO 8601 format.
  """
  scalar Time
  """
  Arbitrary JSON (alert details).
  """
  scalar JSON
  """
  JSON object as a string (a sample alert payload).
  """
  scalar JsonString
  """
  A path segment of a payload field: a string key or an integer index.
  """
  scalar PayloadAlertFieldPathSegment
  """
  A global ID of an alert HTTP integration: gid://gitlab/AlertManagement::HttpIntegration/1.
  """
  scalar AlertManagementHttpIntegrationID
  """
  A global ID of any record.
  """
  scalar GlobalID

  type Query {
    """
    The signed-in user, or null.
    """
    currentUser: UserCore
    """
    A project the caller may read, by full path; null otherwise.
    """
    project(fullPath: ID!): Project
  }

  type Mutation {
    httpIntegrationCreate(input: HttpIntegrationCreateInput!): HttpIntegrationCreatePayload
    httpIntegrationUpdate(input: HttpIntegrationUpdateInput!): HttpIntegrationUpdatePayload
    httpIntegrationResetToken(input: HttpIntegrationResetTokenInput!): HttpIntegrationResetTokenPayload
    httpIntegrationDestroy(input: HttpIntegrationDestroyInput!): HttpIntegrationDestroyPayload
    alertSetAssignees(input: AlertSetAssigneesInput!): AlertSetAssigneesPayload
    updateAlertStatus(input: UpdateAlertStatusInput!): UpdateAlertStatusPayload
    alertTodoCreate(input: AlertTodoCreateInput!): AlertTodoCreatePayload
  }

  type PageInfo {
    hasNextPage: Boolean!
    hasPreviousPage: Boolean!
    startCursor: String
    endCursor: String
  }

  enum UserState {
    active
    blocked
    deactivated
    banned
    ldap_blocked
    blocked_pending_approval
  }

  type UserCore {
    id: ID!
    username: String!
    name: String!
    state: UserState!
    avatarUrl: String
    webUrl: String!
    webPath: String!
    publicEmail: String
    bot: Boolean!
  }

  type UserCoreEdge {
    cursor: String!
    node: UserCore
  }

  type UserCoreConnection {
    count: Int!
    edges: [UserCoreEdge]
    nodes: [UserCore]
    pageInfo: PageInfo!
  }

  type Project {
    id: ID!
    name: String!
    path: String!
    fullPath: ID!
    nameWithNamespace: String!
    webUrl: String
    """
    Alerts of the project (Developers and above; empty for others).
    """
    alertManagementAlerts(
      iid: String
      statuses: [AlertManagementStatus!]
      sort: AlertManagementAlertSort
      domain: AlertManagementDomainFilter! = operations
      search: String
      assigneeUsername: String
      after: String
      before: String
      first: Int
      last: Int
    ): AlertManagementAlertConnection
    """
    One alert of the project, by iid.
    """
    alertManagementAlert(
      iid: String
      statuses: [AlertManagementStatus!]
      sort: AlertManagementAlertSort
      domain: AlertManagementDomainFilter! = operations
      search: String
      assigneeUsername: String
    ): AlertManagementAlert
    """
    Counts of the project's alerts by status.
    """
    alertManagementAlertStatusCounts(search: String, assigneeUsername: String): AlertManagementAlertStatusCountsType
    """
    HTTP integrations of the project (Maintainers and above; empty for others).
    """
    alertManagementHttpIntegrations(
      id: AlertManagementHttpIntegrationID
      after: String
      before: String
      first: Int
      last: Int
    ): AlertManagementHttpIntegrationConnection
    """
    Every alert integration of the project (Maintainers and above; empty for others).
    """
    alertManagementIntegrations(
      id: GlobalID
      after: String
      before: String
      first: Int
      last: Int
    ): AlertManagementIntegrationConnection
  }

  enum AlertManagementDomainFilter {
    operations
    threat_monitoring
  }

  enum AlertManagementStatus {
    TRIGGERED
    ACKNOWLEDGED
    RESOLVED
    IGNORED
  }

  enum AlertManagementSeverity {
    CRITICAL
    HIGH
    MEDIUM
    LOW
    INFO
    UNKNOWN
  }

  enum AlertManagementAlertSort {
    updated_desc
    updated_asc
    created_desc
    created_asc
    UPDATED_DESC
    UPDATED_ASC
    CREATED_DESC
    CREATED_ASC
    STARTED_AT_ASC
    STARTED_AT_DESC
    ENDED_AT_ASC
    ENDED_AT_DESC
    CREATED_TIME_ASC
    CREATED_TIME_DESC
    UPDATED_TIME_ASC
    UPDATED_TIME_DESC
    EVENT_COUNT_ASC
    EVENT_COUNT_DESC
    SEVERITY_ASC
    SEVERITY_DESC
    STATUS_ASC
    STATUS_DESC
  }

  type Environment {
    id: ID!
    name: String!
    state: String!
    path: String!
  }

  type AlertManagementAlert {
    id: ID!
    iid: ID!
    title: String
    description: String
    severity: AlertManagementSeverity
    status: AlertManagementStatus
    service: String
    monitoringTool: String
    hosts: [String!]
    startedAt: Time
    endedAt: Time
    eventCount: Int
    details: JSON
    createdAt: Time
    updatedAt: Time
    environment: Environment
    runbook: String
    metricsDashboardUrl: String
    detailsUrl: String!
    webUrl: String!
    reference(full: Boolean = false): String!
    assignees(after: String, before: String, first: Int, last: Int): UserCoreConnection
    """
    To-do items of the current user for the alert.
    """
    todos(state: [TodoStateEnum!], after: String, before: String, first: Int, last: Int): TodoConnection
  }

  type AlertManagementAlertEdge {
    cursor: String!
    node: AlertManagementAlert
  }

  type AlertManagementAlertConnection {
    count: Int!
    edges: [AlertManagementAlertEdge]
    nodes: [AlertManagementAlert]
    pageInfo: PageInfo!
  }

  type AlertManagementAlertStatusCountsType {
    all: Int
    open: Int
    triggered: Int
    acknowledged: Int
    resolved: Int
    ignored: Int
  }

  enum AlertManagementIntegrationType {
    PROMETHEUS
    HTTP
  }

  enum AlertManagementPayloadAlertFieldName {
    TITLE
    DESCRIPTION
    START_TIME
    END_TIME
    SERVICE
    MONITORING_TOOL
    HOSTS
    SEVERITY
    FINGERPRINT
    GITLAB_ENVIRONMENT_NAME
  }

  enum AlertManagementPayloadAlertFieldType {
    ARRAY
    DATETIME
    STRING
    NUMBER
  }

  type AlertManagementPayloadAlertMappingField {
    fieldName: AlertManagementPayloadAlertFieldName
    path: [PayloadAlertFieldPathSegment!]
    label: String
    type: AlertManagementPayloadAlertFieldType
  }

  type AlertManagementPayloadAlertField {
    path: [PayloadAlertFieldPathSegment!]
    label: String
    type: AlertManagementPayloadAlertFieldType
  }

  input AlertManagementPayloadAlertFieldInput {
    fieldName: AlertManagementPayloadAlertFieldName!
    path: [PayloadAlertFieldPathSegment!]!
    label: String
    type: AlertManagementPayloadAlertFieldType!
  }

  interface AlertManagementIntegration {
    id: ID!
    type: AlertManagementIntegrationType!
    name: String
    active: Boolean
    token: String
    url: String
    apiUrl: String
  }

  type AlertManagementHttpIntegration implements AlertManagementIntegration {
    id: ID!
    type: AlertManagementIntegrationType!
    name: String
    active: Boolean
    token: String
    url: String
    apiUrl: String
    payloadExample: JsonString
    payloadAttributeMappings: [AlertManagementPayloadAlertMappingField!]!
    payloadAlertFields: [AlertManagementPayloadAlertField!]
  }

  type AlertManagementHttpIntegrationEdge {
    cursor: String!
    node: AlertManagementHttpIntegration
  }

  type AlertManagementHttpIntegrationConnection {
    count: Int!
    edges: [AlertManagementHttpIntegrationEdge]
    nodes: [AlertManagementHttpIntegration]
    pageInfo: PageInfo!
  }

  type AlertManagementIntegrationEdge {
    cursor: String!
    node: AlertManagementIntegration
  }

  type AlertManagementIntegrationConnection {
    count: Int!
    edges: [AlertManagementIntegrationEdge]
    nodes: [AlertManagementIntegration]
    pageInfo: PageInfo!
  }

  enum TodoActionEnum {
    assigned
    mentioned
    build_failed
    marked
    approval_required
    unmergeable
    directly_addressed
    merge_train_removed
    review_requested
    member_access_requested
    review_submitted
  }

  enum TodoStateEnum {
    pending
    done
  }

  enum TodoTargetEnum {
    COMMIT
    ISSUE
    MERGEREQUEST
    DESIGN
    ALERT
    EPIC
    PROJECT
    NAMESPACE
    KEY
    WIKIPAGEMETA
    USER
  }

  type Todo {
    id: ID!
    action: TodoActionEnum!
    body: String!
    state: TodoStateEnum!
    targetType: TodoTargetEnum!
    createdAt: Time!
    author: UserCore!
    project: Project
  }

  type TodoEdge {
    cursor: String!
    node: Todo
  }

  type TodoConnection {
    count: Int!
    edges: [TodoEdge]
    nodes: [Todo]
    pageInfo: PageInfo!
  }

  enum MutationOperationMode {
    REPLACE
    APPEND
    REMOVE
  }

  input HttpIntegrationCreateInput {
    clientMutationId: String
    projectPath: ID!
    name: String!
    active: Boolean!
    payloadExample: JsonString
    payloadAttributeMappings: [AlertManagementPayloadAlertFieldInput!]
  }

  type HttpIntegrationCreatePayload {
    clientMutationId: String
    errors: [String!]!
    integration: AlertManagementHttpIntegration
  }

  input HttpIntegrationUpdateInput {
    clientMutationId: String
    id: AlertManagementHttpIntegrationID!
    name: String
    active: Boolean
    payloadExample: JsonString
    payloadAttributeMappings: [AlertManagementPayloadAlertFieldInput!]
  }

  type HttpIntegrationUpdatePayload {
    clientMutationId: String
    errors: [String!]!
    integration: AlertManagementHttpIntegration
  }

  input HttpIntegrationResetTokenInput {
    clientMutationId: String
    id: AlertManagementHttpIntegrationID!
  }

  type HttpIntegrationResetTokenPayload {
    clientMutationId: String
    errors: [String!]!
    integration: AlertManagementHttpIntegration
  }

  input HttpIntegrationDestroyInput {
    clientMutationId: String
    id: AlertManagementHttpIntegrationID!
  }

  type HttpIntegrationDestroyPayload {
    clientMutationId: String
    errors: [String!]!
    integration: AlertManagementHttpIntegration
  }

  input AlertSetAssigneesInput {
    clientMutationId: String
    projectPath: ID!
    iid: String!
    assigneeUsernames: [String!]!
    operationMode: MutationOperationMode
  }

  type AlertSetAssigneesPayload {
    clientMutationId: String
    errors: [String!]!
    alert: AlertManagementAlert
    todo: Todo
  }

  input UpdateAlertStatusInput {
    clientMutationId: String
    projectPath: ID!
    iid: String!
    status: AlertManagementStatus!
  }

  type UpdateAlertStatusPayload {
    clientMutationId: String
    errors: [String!]!
    alert: AlertManagementAlert
    todo: Todo
  }

  input AlertTodoCreateInput {
    clientMutationId: String
    projectPath: ID!
    iid: String!
  }

  type AlertTodoCreatePayload {
    clientMutationId: String
    errors: [String!]!
    alert: AlertManagementAlert
    todo: Todo
  }
`

let built: GraphQLSchema | null = null

/** The executable schema (built once; field resolution goes through the presented objects). */
export function graphqlSchema(): GraphQLSchema {
  built ??= buildSchema(SDL)
  return built
}
