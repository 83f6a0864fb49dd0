import type { Dependency as DependencyEntity } from '../../../shared/api/security'
import type { Dependency, DependencyVulnerability } from './service'

/**
 * A dependency as GitLab's dependency list shows it; `vulnerabilities` only when the caller may
 * see them (null leaves the field out).
 */
export function dependencyEntity(
  d: Dependency,
  vulnerabilities: readonly DependencyVulnerability[] | null,
): DependencyEntity {
  return {
    name: d.name,
    version: d.version,
    package_manager: d.packageManager,
    dependency_file_path: d.dependencyFilePath,
    ...(vulnerabilities ? { vulnerabilities: [...vulnerabilities] } : {}),
  }
}
