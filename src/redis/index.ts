/**
 * `payinout/redis`: shared webhook dedupe state on Redis ({@link RedisDedupeStore}) for receivers
 * that run on more than one process or host. ioredis and node-redis are optional peer dependencies.
 * @module payinout/redis
 */
export { VERSION } from '../version.js';
export {
  type IoRedisLike,
  type NodeRedisLike,
  type RedisClientLike,
  RedisDedupeStore,
  type RedisDedupeStoreOptions,
} from './store.js';
