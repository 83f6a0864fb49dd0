// Certificate-based clusters' public face: deploy jobs read a cluster's token through it.
export { clusterToken } from './service'
