export {
  auditAuthorOf,
  recordAudit,
  recordAuditBy,
  type AuditAuthor,
  type AuditChange,
  type AuditEntityType,
  type NewAuditEvent,
} from './service'
