/** The labels module's public face for other modules. */
export { findLabelById, findLabelTitleInScope, insertLabel, type LabelRow } from './queries'
export { keepOneLabelPerScope, projectLabelScope } from './service'
export { textColorFor } from './colors'
export { labelBasicEntity } from './entity'
export { findLabelInScope } from './queries'
