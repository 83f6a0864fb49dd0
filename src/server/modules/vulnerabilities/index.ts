// Vulnerabilities' public face: the findings dependency lists read, and what the seed and the
// demo's security content write through.
export { dependencyFindings, findVulnerability, listFindings } from './queries'
export {
  createVulnerabilityFromFinding,
  ingestSecurityReport,
  seedSecurityFindings,
  transitionVulnerability,
} from './service'
