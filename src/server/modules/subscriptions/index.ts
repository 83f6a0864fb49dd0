/** The subscriptions module's public face for other modules. */
export { isSubscribed, subscribe, unsubscribe } from './service'
