/** The milestones module's public face for other modules: milestones as the API shows them. */
export { presentMilestones } from './present'
export { listMilestones, type MilestoneFilter } from './queries'
export { todayIso } from './entity'
export { milestoneEntity } from './entity'
export { findMilestoneById, findMilestoneTitle, type MilestoneRow, ownerPaths } from './queries'
