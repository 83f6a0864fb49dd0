/** The suggestions module's public face: its routes and what it fills the notes registry with. */
export { default as suggestionRoutes } from './routes'
export { noteSuggestions } from './service'
