/**
 * What Node resolves `payinout` to (the `node` export condition): everything the main entry
 * exports, with clients that send over `node:http` unless they are given a `fetch`. Bun, Deno,
 * Workers and bundlers for other platforms resolve the main entry, which sends with `fetch`.
 * package.json lists this file under `sideEffects`, so a bundler keeps the installation.
 */
import { platform } from '../core/sender.js';
import { nodeSender } from './sender.js';

platform.sender = nodeSender;

export * from '../index.js';
