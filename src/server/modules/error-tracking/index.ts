// Integrated error tracking's public face: the seed sets it up through these services.
export { createClientKey, updateErrorTrackingSetting } from './service'
