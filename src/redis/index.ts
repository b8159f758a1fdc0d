/** `payinout/redis`: shared webhook dedupe state on Redis. */
export { VERSION } from '../version.js';
export {
  type IoRedisLike,
  type NodeRedisLike,
  type RedisClientLike,
  RedisDedupeStore,
  type RedisDedupeStoreOptions,
} from './store.js';
