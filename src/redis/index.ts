/** `payinout/redis`: shared webhook dedupe state on Redis. */
export { VERSION } from '../version.js';
