/**
 * What a PaymentClient lends `createWebhookHandler({ client })`: its token, `webhookScheme` and
 * tracer. They are kept here, in a module-private WeakMap keyed by the client, not on the client:
 * a credential that is no property of the object cannot reach JSON.stringify, util.inspect or a
 * debugger's view of it, and the client need not import the receiver to hand them over (the
 * receiver's code stays out of a bundle that only uses the client).
 */
import type { Tracer } from '../tracing/tracer.js';
import type { SignatureScheme } from './signature.js';

/** The client's options a webhook receiver built from it uses. */
export interface ClientSigner {
  token: string;
  scheme: SignatureScheme | undefined;
  tracer: Tracer | undefined;
}

const signers = new WeakMap<object, ClientSigner>();

/** Called once by each PaymentClient's constructor. */
export function lendSigner(client: object, signer: ClientSigner): void {
  signers.set(client, signer);
}

/**
 * The signer a PaymentClient of this copy of payinout lent, or undefined for anything else (an
 * object that is no client, or a client of another copy: ESM and CommonJS both loaded).
 */
export function clientSignerOf(client: unknown): ClientSigner | undefined {
  return typeof client === 'object' && client !== null ? signers.get(client) : undefined;
}
