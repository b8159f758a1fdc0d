/**
 * `payinout openapi [--server URL]`: prints the service's OpenAPI 3.1 document (the one exported
 * as `payinout/openapi.json` and served by the simulator at GET {base_url}/openapi.json), to
 * generate clients in other languages or import the service into Postman or Insomnia.
 */
import type { Command } from 'commander';
import { buildOpenApiDocument } from '../openapi/document.js';
import { printOut } from './terminal.js';

interface OpenApiFlags {
  server?: string;
}

export function registerOpenApi(program: Command): void {
  program
    .command('openapi')
    .description("Print the service's OpenAPI 3.1 document (JSON) on stdout.")
    .option('--server <url>', 'the base_url to name as its server (default: a {base_url} variable)')
    .addHelpText(
      'after',
      '\nExamples:\n  payinout openapi > payinout.openapi.json\n  payinout openapi --server http://127.0.0.1:4010\n',
    )
    .action((flags: OpenApiFlags) => {
      const document = buildOpenApiDocument(flags.server ? { serverUrl: flags.server } : {});
      printOut(`${JSON.stringify(document, null, 2)}\n`);
    });
}
