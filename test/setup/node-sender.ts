/**
 * Tests run as Node users get payinout: clients without a `fetch` option send over `node:http`
 * (the `node` export condition's entry installs it; tests import src/index.ts directly). The
 * `fetch` project of vitest.config.ts runs the transport suites again without it.
 */
import { platform } from '../../src/core/sender.js';
import { nodeSender } from '../../src/node/sender.js';

platform.sender = nodeSender;
