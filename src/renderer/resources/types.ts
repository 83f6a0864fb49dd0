/**
 * The declarative description of a REST resource that the generic panels
 * (components/resource/ResourceList, ResourceDetail, ResourceForm) render: DESIGN.md's "lists,
 * details and forms over one resource each". One description per resource lives in this folder
 * (admin.ts, project.ts, group.ts, personal.ts); nothing here knows Vue.
 *
 * Paths are templates relative to /api/v4:
 * - `:project`, `:group`, `:user` — the panel's context (the chosen project or group, and the
 *   account's own user id);
 * - `{field}` — a field of the item at hand (`/runners/{id}`, `/projects/:project/pages/domains/{domain}`),
 *   URL-encoded when filled in.
 */

import type { ApiBodyValue, ApiQueryValue, ApiSendMethod } from '../../shared/ipc/api'

/** What the paths need besides the item: nothing, a project, a group, or the account's user. */
export type ResourceScope = 'instance' | 'project' | 'group' | 'user'

/**
 * Who may do something, as GitLab's roles: an instance administrator, or at least this role in
 * the context's project or group. `signed-in` is anyone with an account.
 */
export type Role = 'signed-in' | 'reporter' | 'developer' | 'maintainer' | 'owner' | 'admin'

/** The sidebar families the resource panels fill (navigation.ts). */
export type ResourceFamilyKey = 'admin' | 'ci-cd' | 'operations' | 'security' | 'projects' | 'groups' | 'account'

/** How a cell or a detail field shows its value. */
export type Formatter =
  | 'text'
  | 'code'
  | 'number'
  | 'date'
  | 'datetime'
  | 'relative'
  | 'user'
  | 'boolean'
  | 'state'
  | 'link'
  | 'list'
  | 'links'
  | 'access-level'
  | 'duration'
  | 'json'
  | 'pem'

/** One entry of a `links` field (a release's asset links): a named web link and its kind. */
export interface NamedLink {
  readonly name: string
  readonly url: string
  /** What the link is (`package`, `runbook`), shown beside its name. */
  readonly kind?: string
}

export type Tone = 'success' | 'warning' | 'error' | 'info' | 'default'

export interface FieldView {
  /** A dotted path into the item (`platform_cluster.api_url`, `certificate.expiration`). */
  readonly field: string
  readonly label: string
  readonly format?: Formatter
  /** For `state`: the tone of each value (the common ones have defaults in format.ts). */
  readonly tones?: Readonly<Record<string, Tone>>
  /** For `user`: the value is an id, not a user object (`author_id`). */
  readonly userId?: boolean
  /** Computes the value from the item instead of reading `field` (`field` still names the column). */
  readonly value?: (item: Readonly<Record<string, unknown>>) => unknown
}

export interface Column extends FieldView {
  /** The cell links to the item's detail (the first column does when none says so). */
  readonly primary?: boolean
  /** A CSS grid track (`minmax(0, 2fr)`, `120px`); default `minmax(0, 1fr)`. */
  readonly width?: string
}

export interface Option {
  readonly value: string | number
  readonly label: string
}

/**
 * A list filter: one query parameter of the list endpoint, named as the API names it. Empty
 * values are left out of the query.
 */
export type Filter =
  /** Free text; with `minLength`, shorter text is not sent (the environments API refuses searches under 3 characters). */
  | {
      readonly kind: 'search'
      readonly param: string
      readonly label: string
      readonly placeholder?: string
      readonly minLength?: number
    }
  | { readonly kind: 'select'; readonly param: string; readonly label: string; readonly options: readonly Option[] }
  /** A flag the API takes only as `=true` (`blocked=true`, `admins=true`). */
  | { readonly kind: 'flag'; readonly param: string; readonly label: string }
  /** A list sent as `param[]=a&param[]=b` (`tag_list`). */
  | { readonly kind: 'tags'; readonly param: string; readonly label: string; readonly placeholder?: string }
  /** An ISO 8601 instant (`created_after`). */
  | { readonly kind: 'datetime'; readonly param: string; readonly label: string }
  /** A day (`YYYY-MM-DD`, the events API's `before`/`after`). */
  | { readonly kind: 'date'; readonly param: string; readonly label: string }
  | { readonly kind: 'number'; readonly param: string; readonly label: string }

export type FilterValue = string | number | boolean | readonly string[] | null

export type FormValue = string | number | boolean | readonly string[] | null

export type FormValues = Readonly<Record<string, FormValue>>

export type FieldType =
  | 'text'
  | 'textarea'
  | 'password'
  | 'email'
  | 'url'
  | 'number'
  | 'boolean'
  | 'select'
  | 'tags'
  | 'datetime'
  | 'date'
  | 'pem'

/** A GET of the REST API for a form's options (through the URL cache), answering the JSON body. */
export type ReadApi = (path: string, query?: Readonly<Record<string, ApiQueryValue>>) => Promise<unknown>

export interface FormField {
  /** The body parameter; dots nest it (`platform_cluster_attributes.api_url` → `{platform_cluster_attributes: {api_url}}`). */
  readonly name: string
  readonly label: string
  readonly type: FieldType
  readonly required?: boolean
  readonly default?: FormValue
  readonly options?: readonly Option[]
  readonly help?: string
  readonly placeholder?: string
  readonly min?: number
  readonly max?: number
  readonly minLength?: number
  readonly maxLength?: number
  /** A regular expression the whole value must match, and what to say when it does not. */
  readonly pattern?: { readonly source: string; readonly message: string }
  /** Shown only when this is true for the current values (a password field hidden by "generate one"). */
  readonly when?: (values: FormValues) => boolean
  /** Where the edit form takes the current value from, when not `name` (`platform_cluster.api_url`). */
  readonly from?: string
  /** Never filled from the item (a variable's stored value stays off screen): left empty, the current value is kept. */
  readonly writeOnly?: boolean
  /** A `select` whose options are read from the server, again for each search typed (a fork's namespaces). */
  readonly optionsFrom?: (read: ReadApi, search: string) => Promise<readonly Option[]>
}

/** What to do with the server's answer after a successful write. */
export type Outcome =
  /** Reload what is on screen (the default). */
  | 'reload'
  /** Go back to the list (after a delete from the detail). */
  | 'list'
  /** Open the answer as the item's detail (after a create). */
  | 'detail'
  /** Show the answer's fields (a dry run's findings, a scheduled bulk move). */
  | 'show'
  /** Show `secretField` of the answer once, with a copy button; it is never stored. */
  | 'secret'

export interface FormSpec {
  readonly title: string
  readonly method: ApiSendMethod
  readonly path: string
  readonly fields: readonly FormField[]
  readonly submitLabel?: string
  /** Rules between fields: messages by field name (`''` for the form as a whole); empty when valid. */
  readonly validate?: (values: FormValues) => Readonly<Record<string, string>>
  /** A body other than the fields by name (arrays of objects, renamed parameters). */
  readonly toBody?: (values: FormValues) => { readonly [key: string]: ApiBodyValue }
  /** Fields sent as query parameters instead of the body (`finding_id`). */
  readonly queryFields?: readonly string[]
  /** Fields that fill `{field}` placeholders of the path instead of going in the body (the project of a storage move). */
  readonly pathFields?: readonly string[]
  readonly outcome?: Outcome
  readonly secretField?: string
  /** Fields of the answer shown for `show`. */
  readonly showFields?: readonly FieldView[]
}

export interface Action {
  readonly key: string
  readonly label: string
  readonly method: ApiSendMethod
  readonly path: string
  /** `item`: on a row and the detail; `collection`: beside the list (bulk cleanup, schedule moves). */
  readonly on: 'item' | 'collection'
  readonly role?: Role
  /** Asked before sending; for item actions a function of the item. */
  readonly confirm?: string | ((item: Readonly<Record<string, unknown>>) => string)
  readonly danger?: boolean
  /** Whether it applies to this item (Block for active users, Unblock for blocked ones). */
  readonly visible?: (item: Readonly<Record<string, unknown>>) => boolean
  readonly query?: Readonly<Record<string, string | number | boolean>>
  /** Query parameters taken from the item (a variable's `filter[environment_scope]`, when keys repeat across scopes). */
  readonly queryOf?: (item: Readonly<Record<string, unknown>>) => Readonly<Record<string, ApiQueryValue>>
  /** Sent as the body (with a form's values); a value of `:user`, `:project` or `:group` is filled from the context. */
  readonly body?: { readonly [key: string]: ApiBodyValue }
  /** Body parameters taken from the item, sent with the form's values (`filter: {environment_scope}`). */
  readonly bodyOf?: (item: Readonly<Record<string, unknown>>) => { readonly [key: string]: ApiBodyValue }
  /** Values to ask for first (an access level, a dry-run switch); sent as the body unless `form.queryFields`. */
  readonly form?: Omit<FormSpec, 'method' | 'path'>
  /** The form starts from the item's values and sends only what changed: an edit in a dialog, for items without a detail route. */
  readonly editsItem?: boolean
  readonly outcome?: Outcome
  /** What to say when it worked; a function reads the server's answer (an environment stopping or stopped). */
  readonly done?: string | ((answer: unknown) => string)
}

export interface ListSpec {
  readonly path: string
  readonly columns: readonly Column[]
  readonly filters?: readonly Filter[]
  /**
   * Query parameters always sent (`per_page`, a default sort); a filter with the same name
   * replaces one. A value of `:user`, `:project` or `:group` is filled from the context.
   */
  readonly query?: Readonly<Record<string, string | number | boolean>>
  /** The field that identifies an item in routes and `{…}` placeholders; default `id`. */
  readonly key?: string
  /** The list endpoint answers one page only (no pagination headers): no pager. */
  readonly unpaged?: boolean
  /** The answer is an object holding the rows under this key, not an array. */
  readonly rowsAt?: string
  /** The rows made from an answer that is no list of items (GitLab's languages: `{ "Go": 61.2 }`). */
  readonly rowsOf?: (body: unknown) => Readonly<Record<string, unknown>>[]
}

export interface DetailSpec {
  /** The single GET (`/runners/{id}`); without it the detail shows the list's row. */
  readonly path?: string
  readonly fields: readonly FieldView[]
  /** A job's log (its trace, with colours and sections) shown below the fields, read from this path. */
  readonly log?: { readonly path: string; readonly label: string }
  /**
   * A pipeline's jobs, read from this path and shown above the fields as its stage graph; each
   * job opens as an item of `jobResource` (a resource of the same family).
   */
  readonly graph?: { readonly path: string; readonly jobResource: string }
  /** A webhook's recent deliveries, listed below the fields with their headers, bodies and a "Resend". */
  readonly deliveries?: DeliveriesSpec
  /** A pipeline's unit test report (counts, suites, failed cases first), read from this path below the graph. */
  readonly testReport?: { readonly path: string }
  /**
   * Items the list shows that the single GET does not answer (a project's badges inherited from its
   * groups, GitLab's 404): when `path` answers 404 the detail is the list's row, read-only (no Edit;
   * the actions' `visible` keep theirs off), with `note` saying whose it is.
   */
  readonly listOnly?: {
    readonly is: (item: Readonly<Record<string, unknown>>) => boolean
    readonly note: string
  }
}

/**
 * GitLab's hook events of one hook: listed from `path` (`?status=` filters them), each sent again
 * by `POST {path}/{event id}/resend`, which needs `role`.
 */
export interface DeliveriesSpec {
  readonly path: string
  readonly role: Role
}

export interface ResourceDescription {
  /** Unique within its family; the route segment (`/admin/users`). */
  readonly key: string
  readonly family: ResourceFamilyKey
  /** Plural, as the list's heading (`Users`). */
  readonly title: string
  /** One item (`user`), for buttons and messages. */
  readonly singular: string
  readonly scope: ResourceScope
  readonly description?: string
  /** Who can read it; the panel says so instead of showing a 403. */
  readonly readRole?: Role
  /** Where the spec or GitLab marks it: shown as a small tag. */
  readonly tier?: 'Premium' | 'Ultimate'
  readonly list?: ListSpec
  /** A single object (application settings, error tracking settings) instead of a list. */
  readonly singleton?: { readonly path: string; readonly fields: readonly FieldView[] }
  readonly detail?: DetailSpec
  readonly create?: FormSpec & { readonly role?: Role }
  /** Filled from the item; `{field}` placeholders in its path. */
  readonly edit?: FormSpec & { readonly role?: Role }
  readonly actions?: readonly Action[]
  /** The field naming an item in headings and confirmations (`username`, `name`); default the key. */
  readonly titleField?: string
  /** How an item's heading reads when the title field alone says too little (`Pipeline #25`). */
  readonly titleOf?: (item: Readonly<Record<string, unknown>>) => string
}

/** The context a panel runs in: which account, and the project or group its paths need. */
export interface ResourceContext {
  readonly accountId: string
  /** The account's own user id (`:user`). */
  readonly userId: number
  readonly projectId?: number | null
  readonly groupId?: number | null
}
