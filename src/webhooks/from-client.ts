/**
 * `createWebhookHandler({ client })`: the receiver takes the token, `webhookScheme` and tracer of a
 * PaymentClient (lent through client-signer.ts). Explicit `scheme` and `tracer` options win. An
 * explicit `token` must be, or list, the client's token: one that does not would refuse (401)
 * every delivery signed for that client, a mix-up of two accounts better refused at startup.
 *
 * `client` does not imply `confirmWith`. Looking each delivery up costs a call to the service per
 * delivery, needs the receiver to reach the service, and changes the answers (409 when the lookup
 * does not show the event, 503 when it fails): a separate choice, made by `confirmWith: client`.
 */
import { ConfigurationError } from '../core/errors.js';
import { clientSignerOf } from './client-signer.js';
import type { WebhookTokens } from './tokens.js';

const WHO = 'createWebhookHandler';

/** The options a handler's signer needs: its own, or those a `client` lends. */
interface SignerOptions {
  token?: WebhookTokens | undefined;
  client?: unknown;
  scheme?: unknown;
  tracer?: unknown;
}

/**
 * `options` with `token` (and `scheme`, `tracer` unless given) taken from `options.client`; the
 * options themselves when there is no client. A ConfigurationError when neither is given, when
 * `client` is no PaymentClient of this copy of payinout, or when `token` leaves out its token.
 */
export function withClientSigner<T extends SignerOptions>(options: T): T {
  if (options === null || typeof options !== 'object') return options; // toPipeline names it
  const { client, token } = options;
  if (client === undefined) {
    if (token === undefined) throw new ConfigurationError(`${WHO} ${NEEDS_SIGNER}`);
    return options;
  }
  const signer = clientSignerOf(client);
  if (!signer) throw new ConfigurationError(`${WHO}: client ${notAClient(client)}`);
  if (token !== undefined && !tokensIn(token).includes(signer.token)) {
    throw new ConfigurationError(
      `${WHO}: token is not the token of client, so every delivery signed for that client would be refused (401). Give client alone (its token signs), or token alone; for several merchants, list the client's token in token too.`,
    );
  }
  const scheme = options.scheme ?? signer.scheme;
  const tracer = options.tracer ?? signer.tracer;
  return {
    ...options,
    token: token ?? signer.token,
    ...(scheme === undefined ? {} : { scheme }),
    ...(tracer === undefined ? {} : { tracer }),
  };
}

const NEEDS_SIGNER =
  'needs { token } (the merchant token, PAYINOUT_TOKEN, or several as an array or a record { [merchant]: token }) or { client } (a PaymentClient: its token, webhookScheme and tracer are used).';
const OR_TOKEN = 'or leave client out and give token (the merchant token, PAYINOUT_TOKEN).';

/** Why `client` was refused: no client at all, or a client of another copy of payinout. */
function notAClient(client: unknown): string {
  const verify = (client as { webhooks?: { verify?: unknown } } | null)?.webhooks?.verify;
  if (typeof verify === 'function') {
    return `is a PaymentClient of another copy of payinout (the ESM and the CommonJS build both loaded?), whose token this copy cannot read. Load PaymentClient and createWebhookHandler the same way (both import or both require), ${OR_TOKEN}`;
  }
  return `must be a PaymentClient (new PaymentClient({ … }) or PaymentClient.fromEnv()); ${OR_TOKEN}`;
}

/** Every token of a `token` option (one, an array, or a record of them). */
function tokensIn(token: WebhookTokens): readonly unknown[] {
  if (typeof token === 'string') return [token];
  if (token === null || typeof token !== 'object') return [];
  return Array.isArray(token) ? token : Object.values(token);
}
