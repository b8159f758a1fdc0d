/** `payinout openapi`: prints the same document the package exports and the simulator serves. */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../../src/openapi/document.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const run = (args: string[]) =>
  promisify(execFile)(process.execPath, ['--import', 'tsx', 'src/cli/index.ts', ...args], { cwd: ROOT });

describe('payinout openapi', () => {
  it('prints the document as JSON on stdout', async () => {
    const { stdout } = await run(['openapi']);
    expect(JSON.parse(stdout)).toStrictEqual(buildOpenApiDocument());
  });

  it('names the given server', async () => {
    const { stdout } = await run(['openapi', '--server', 'http://127.0.0.1:4010']);
    expect(JSON.parse(stdout).servers).toStrictEqual([
      expect.objectContaining({ url: 'http://127.0.0.1:4010' }),
    ]);
  });

  it('refuses an unknown option with exit code 2', async () => {
    const failure = await run(['openapi', '--nope']).catch((error: unknown) => error);
    expect(failure).toMatchObject({ code: 2, stderr: expect.stringContaining("unknown option '--nope'") });
  });
});
