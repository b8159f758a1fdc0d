/** `payinout/testing`: the local sandbox simulator and webhook test helpers. */
export { VERSION } from '../version.js';
export * from './webhooks.js';
