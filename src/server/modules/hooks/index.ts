/**
 * The webhooks module's public face: how other families announce events to hooks and how tests
 * wait for deliveries. Its routes are registered by modules/index.ts.
 */
export { deliveriesIdle } from './delivery'
