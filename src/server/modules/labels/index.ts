/** The labels module's public face for other modules. */
export { findLabelById, findLabelTitleInScope, insertLabel, type LabelRow } from './queries'
export { keepOneLabelPerScope, projectLabelScope } from './service'
export { textColorFor } from './colors'
export { findLabelInScope } from './queries'
