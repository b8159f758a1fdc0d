/**
 * Turns a low-level fetch failure into a ConnectionError that says whether the request may have
 * reached the service, without keeping anything that could hold request headers.
 */
import { ConnectionError } from './errors.js';
import { scrubText } from './redact.js';

/** A certificate refused during the TLS handshake (OpenSSL's and Node's codes). */
const TLS_CODES = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'CERT_REVOKED',
  'CERT_UNTRUSTED',
  'CERT_REJECTED',
  'CERT_SIGNATURE_FAILURE',
  'CERT_CHAIN_TOO_LONG',
  'INVALID_CA',
  'HOSTNAME_MISMATCH',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

/**
 * Connection refused, DNS failure, a request node:http refused to build (thrown before any byte
 * is written), or a certificate refused in the TLS handshake: the request provably never
 * reached the service.
 */
const NOT_SENT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ERR_INVALID_URL',
  'ERR_INVALID_CHAR',
  'ERR_INVALID_HTTP_TOKEN',
  'ERR_HTTP_INVALID_HEADER_VALUE',
  'ERR_UNESCAPED_CHARACTERS',
  // The server's certificate was refused during the TLS handshake, before any HTTP byte.
  ...TLS_CODES,
]);

/** A socket closed under us before any response byte: the usual face of a stale keep-alive socket. */
const RESET_CODES = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED']);

export interface FailureContext {
  method: string;
  path: string;
  attempts: number;
  /** Set for creates: named in the message and on the error. */
  reference?: string | undefined;
  /** Set when the status had arrived and the body then failed. */
  status?: number | undefined;
  /** The baseUrl the request went to: a loopback one is usually a local simulator. */
  baseUrl?: string | undefined;
}

/** The origin of a loopback baseUrl (no path, no user info), else undefined. */
function loopbackOrigin(baseUrl: string | undefined): string | undefined {
  let url: URL;
  try {
    url = new URL(baseUrl ?? '');
  } catch {
    return undefined;
  }
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return host === 'localhost' || host === '::1' || /^127\./.test(host) ? url.origin : undefined;
}

/** What to do after a failure that is not an unknown outcome. */
function nextStep(code: string | undefined, baseUrl: string | undefined): string {
  if (code && TLS_CODES.has(code))
    return "Nothing was sent: the server's TLS certificate was not trusted. Check that baseUrl is the service's address; if a proxy re-signs TLS, give Node its CA (NODE_EXTRA_CA_CERTS).";
  const local = code === 'ECONNREFUSED' ? loopbackOrigin(baseUrl) : undefined;
  if (local)
    return `Nothing was sent: nothing listens at ${local}. Is \`payinout sandbox\` running? Start it with \`npx payinout sandbox\` and use the PAYINOUT_BASE_URL it prints (its port may differ).`;
  return 'Check baseUrl and the network to the service.';
}

export function connectionError(
  error: unknown,
  context: FailureContext,
  secrets: readonly string[] = [],
  unknownAdvice?: string,
): ConnectionError {
  const code = networkCode(error);
  const outcome = code && NOT_SENT_CODES.has(code) ? 'not_sent' : 'unknown';
  const detail = code ?? scrubText(error instanceof Error ? error.message : String(error), secrets);
  const { reference, status, baseUrl, ...where } = context;
  const next = outcome === 'unknown' && unknownAdvice ? unknownAdvice : nextStep(code, baseUrl);
  const what =
    status === undefined
      ? 'got no answer from the service'
      : `got HTTP ${status} from the service but could not read its body`;
  return new ConnectionError({
    ...where,
    outcome,
    ...(reference === undefined ? {} : { reference }),
    message: `${context.method} ${context.path} ${what} (${detail}, attempt ${context.attempts}). ${next}`,
    cause: safeCause(error, secrets),
  });
}

export function isReset(error: unknown): boolean {
  const code = networkCode(error);
  return code !== undefined && RESET_CODES.has(code);
}

function networkCode(error: unknown): string | undefined {
  for (let e: unknown = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return code;
  }
  return undefined;
}

/**
 * Keeps the low-level error's name, message and code only: nothing that could hold headers. The
 * message is scrubbed too: a custom fetch or proxy agent may quote a credential in it.
 */
function safeCause(error: unknown, secrets: readonly string[], depth = 0): Error | undefined {
  if (!(error instanceof Error) || depth > 5) return undefined;
  const inner = error.cause instanceof Error ? safeCause(error.cause, secrets, depth + 1) : undefined;
  const cause = new Error(scrubText(error.message, secrets), inner ? { cause: inner } : undefined);
  cause.name = error.name;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') Object.assign(cause, { code });
  return cause;
}
