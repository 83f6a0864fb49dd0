/**
 * Alert management (HTTP integrations and the alerts they receive) and security findings
 * (scanners, identifiers, findings read from security reports, vulnerabilities created from
 * them). Integration tokens are sealed with the instance key (auth/encryption.ts), never kept in
 * clear, as GitLab keeps them with attr_encrypted.
 */
export default {
  version: 14,
  name: 'alerts-security',
  sql: `
-- endpoint_identifier is the 16-hex path segment of the integration's URL ('legacy' for the
-- single endpoint at /alerts/notify.json). payload_attribute_mappings is a JSON array of
-- {fieldName, path, type, label}.
CREATE TABLE alert_management_http_integrations (
  id INTEGER PRIMARY KEY,
  project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  active INTEGER NOT NULL DEFAULT 0,
  endpoint_identifier TEXT NOT NULL,
  encrypted_token TEXT NOT NULL,
  payload_example TEXT NOT NULL DEFAULT '{}',
  payload_attribute_mappings TEXT NOT NULL DEFAULT '[]',
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  UNIQUE (project_id, endpoint_identifier)
);

-- status: 0 triggered, 1 acknowledged, 2 resolved, 3 ignored (GitLab's enum values, so status
-- sorts the way GitLab sorts it); severity: 0 critical … 4 info, 5 unknown. fingerprint is the
-- SHA1 hex of the payload's fingerprint (or of the payload itself, see services/alert-payload.ts).
CREATE TABLE alert_management_alerts (
  id INTEGER PRIMARY KEY,
  project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  iid INTEGER NOT NULL,
  integration_id INTEGER REFERENCES alert_management_http_integrations(id) ON DELETE SET NULL,
  title TEXT NOT NULL,
  description TEXT,
  severity INTEGER NOT NULL DEFAULT 0 CHECK (severity BETWEEN 0 AND 5),
  status INTEGER NOT NULL DEFAULT 0 CHECK (status BETWEEN 0 AND 3),
  service TEXT,
  monitoring_tool TEXT,
  hosts TEXT NOT NULL DEFAULT '[]',
  fingerprint TEXT,
  environment_id INTEGER REFERENCES environments(id) ON DELETE SET NULL,
  payload TEXT NOT NULL DEFAULT '{}',
  events INTEGER NOT NULL DEFAULT 1,
  started_at TEXT NOT NULL,
  ended_at TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  UNIQUE (project_id, iid)
);
-- At most one unresolved alert per fingerprint: the one identical payloads are grouped into.
CREATE UNIQUE INDEX alert_management_alerts_open_fingerprint ON alert_management_alerts(project_id, fingerprint)
  WHERE fingerprint IS NOT NULL AND status <> 2;
CREATE INDEX alert_management_alerts_project_created ON alert_management_alerts(project_id, created_at);

CREATE TABLE alert_management_alert_assignees (
  alert_id INTEGER NOT NULL REFERENCES alert_management_alerts(id) ON DELETE CASCADE,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  created_at TEXT NOT NULL,
  PRIMARY KEY (alert_id, user_id)
);
CREATE INDEX alert_management_alert_assignees_user ON alert_management_alert_assignees(user_id);

CREATE TABLE vulnerability_scanners (
  id INTEGER PRIMARY KEY,
  project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  external_id TEXT NOT NULL,
  name TEXT NOT NULL,
  vendor TEXT NOT NULL DEFAULT 'GitLab',
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  UNIQUE (project_id, external_id)
);

-- fingerprint: SHA1 of "external_type:external_id", as GitLab fingerprints identifiers.
CREATE TABLE vulnerability_identifiers (
  id INTEGER PRIMARY KEY,
  project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  fingerprint TEXT NOT NULL,
  external_type TEXT NOT NULL,
  external_id TEXT NOT NULL,
  name TEXT NOT NULL,
  url TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  UNIQUE (project_id, fingerprint)
);

-- state: detected, confirmed, resolved, dismissed (GitLab's Vulnerability states).
CREATE TABLE vulnerabilities (
  id INTEGER PRIMARY KEY,
  project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  author_id INTEGER NOT NULL REFERENCES users(id),
  title TEXT NOT NULL,
  description TEXT,
  state TEXT NOT NULL DEFAULT 'detected' CHECK (state IN ('detected', 'confirmed', 'resolved', 'dismissed')),
  severity TEXT NOT NULL,
  confidence TEXT NOT NULL,
  report_type TEXT NOT NULL,
  resolved_on_default_branch INTEGER NOT NULL DEFAULT 0,
  confirmed_at TEXT,
  confirmed_by_id INTEGER REFERENCES users(id) ON DELETE SET NULL,
  resolved_at TEXT,
  resolved_by_id INTEGER REFERENCES users(id) ON DELETE SET NULL,
  dismissed_at TEXT,
  dismissed_by_id INTEGER REFERENCES users(id) ON DELETE SET NULL,
  updated_by_id INTEGER REFERENCES users(id) ON DELETE SET NULL,
  last_edited_at TEXT,
  last_edited_by_id INTEGER REFERENCES users(id) ON DELETE SET NULL,
  start_date TEXT,
  due_date TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX vulnerabilities_project ON vulnerabilities(project_id, id);

-- One finding per (project, uuid); re-ingesting a report updates it. vulnerability_id is set once
-- a vulnerability is created from it (POST /projects/:id/vulnerabilities). package_name and
-- package_version are the dependency of a dependency_scanning finding, for the dependency list.
CREATE TABLE vulnerability_findings (
  id INTEGER PRIMARY KEY,
  project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  uuid TEXT NOT NULL,
  report_type TEXT NOT NULL,
  name TEXT NOT NULL,
  description TEXT,
  solution TEXT,
  severity TEXT NOT NULL,
  confidence TEXT NOT NULL,
  scanner_id INTEGER NOT NULL REFERENCES vulnerability_scanners(id) ON DELETE CASCADE,
  primary_identifier_id INTEGER NOT NULL REFERENCES vulnerability_identifiers(id) ON DELETE CASCADE,
  location_fingerprint TEXT NOT NULL,
  project_fingerprint TEXT NOT NULL,
  metadata_version TEXT NOT NULL,
  raw_metadata TEXT NOT NULL,
  location TEXT NOT NULL DEFAULT '{}',
  file_path TEXT,
  package_name TEXT,
  package_version TEXT,
  pipeline_id INTEGER,
  vulnerability_id INTEGER REFERENCES vulnerabilities(id) ON DELETE SET NULL,
  detected INTEGER NOT NULL DEFAULT 1,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  UNIQUE (project_id, uuid)
);
CREATE INDEX vulnerability_findings_project_type ON vulnerability_findings(project_id, report_type, id);
CREATE INDEX vulnerability_findings_package ON vulnerability_findings(project_id, package_name, package_version) WHERE package_name IS NOT NULL;
CREATE UNIQUE INDEX vulnerability_findings_vulnerability ON vulnerability_findings(vulnerability_id) WHERE vulnerability_id IS NOT NULL;

CREATE TABLE vulnerability_finding_identifiers (
  finding_id INTEGER NOT NULL REFERENCES vulnerability_findings(id) ON DELETE CASCADE,
  identifier_id INTEGER NOT NULL REFERENCES vulnerability_identifiers(id) ON DELETE CASCADE,
  position INTEGER NOT NULL,
  PRIMARY KEY (finding_id, identifier_id)
);
`,
}
