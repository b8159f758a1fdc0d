/**
 * Paths from the table's templates, both ways: built for a request (client) and matched for a
 * route (simulator). One template per operation, so the two cannot disagree.
 */
import { RequestValidationError } from '../core/errors.js';
import { segmentProblem } from '../schemas/path-segment.js';
import type { HttpMethod, Operation } from './types.js';

/** Values of an operation's `{…}` segments, by name. */
export type PathParams = Readonly<Record<string, string>>;

/**
 * The path of a call, relative to the base URL and without a leading slash (`api/v1/transaction/T-1`),
 * each parameter percent-encoded. Every path the SDK sends is built here, so this is where a
 * parameter that would not reach the server as itself (`.`, `..`, empty, a lone surrogate) is
 * refused: a RequestValidationError, nothing sent (schemas/path-segment.ts says why). Throws a
 * TypeError when a parameter is missing: a caller's bug, never a request.
 */
export function buildPath(operation: Pick<Operation, 'template' | 'id'>, params: PathParams = {}): string {
  // The template without its leading slash, split once per operation into its fixed text and
  // parameter names, alternating (`api/v1/transaction/`, `ticket`, ``): joined per call, not
  // matched by a pattern with a callback.
  let parts = templates.get(operation);
  if (!parts) {
    parts = operation.template.slice(1).split(/\{(\w+)\}/);
    templates.set(operation, parts);
  }
  let path = parts[0] as string;
  for (let i = 1; i < parts.length; i += 2) {
    const name = parts[i] as string;
    const value = params[name];
    if (typeof value !== 'string') throw new TypeError(`${operation.id}: path parameter ${name} is missing.`);
    const problem = segmentProblem(value);
    if (problem)
      throw new RequestValidationError(`${operation.id} path`, [{ path: name, message: problem }], false);
    path += encodeURIComponent(value) + parts[i + 1];
  }
  return path;
}

const templates = new WeakMap<object, readonly string[]>();

/** A template compiled once: its fixed segments and where its parameters sit. */
interface CompiledTemplate {
  operation: Operation;
  segments: readonly string[];
}

/** What a path and method resolve to. */
export type RouteMatch =
  | { found: 'operation'; operation: Operation; params: Record<string, string> }
  | { found: 'wrong-method'; allowed: readonly HttpMethod[] }
  | { found: 'nothing' }
  /** A path parameter that is not valid percent-encoding. */
  | { found: 'bad-path' };

/**
 * A matcher over the given operations: `match(method, '/api/v1/transaction/T-1')`. Query strings
 * and one trailing slash are ignored; parameters are percent-decoded.
 */
export function createRouter(operations: readonly Operation[]): (method: string, path: string) => RouteMatch {
  // Paths without parameters are looked up in a map; only templates with `{…}` are matched by segment.
  const fixed = new Map<string, Operation[]>();
  const templated: CompiledTemplate[] = [];
  for (const operation of operations) {
    if (operation.pathParams.length === 0) {
      fixed.set(operation.template, [...(fixed.get(operation.template) ?? []), operation]);
    } else templated.push({ operation, segments: operation.template.split('/') });
  }
  return (method, rawPath) => {
    const path = normalize(rawPath);
    const wanted = method.toUpperCase();
    const exact = fixed.get(path);
    if (exact) return pick(exact, wanted, {});
    const segments = path.split('/');
    const allowed: HttpMethod[] = [];
    for (const { operation, segments: template } of templated) {
      const params = matchSegments(template, segments);
      if (params === undefined) continue;
      if (params === null) return { found: 'bad-path' };
      if (operation.method === wanted) return { found: 'operation', operation, params };
      allowed.push(operation.method);
    }
    return allowed.length ? { found: 'wrong-method', allowed } : { found: 'nothing' };
  };
}

function pick(candidates: readonly Operation[], method: string, params: Record<string, string>): RouteMatch {
  const operation = candidates.find((op) => op.method === method);
  if (operation) return { found: 'operation', operation, params };
  return { found: 'wrong-method', allowed: candidates.map((op) => op.method) };
}

function normalize(path: string): string {
  const query = path.indexOf('?');
  const raw = query === -1 ? path : path.slice(0, query);
  const bare = DOT_SEGMENT.test(raw) ? resolveDots(raw) : raw;
  return bare.length > 1 && bare.endsWith('/') ? bare.slice(0, -1) : bare;
}

/** A segment URL parsing may treat as `.` or `..` (`%2e` in any case counts as a dot). */
const DOT_SEGMENT = /(?:^|\/)(?:\.|%2e)/i;

/**
 * The path as URL parsing resolves it, dot segments removed: what a service behind any proxy
 * sees, so the simulator never looks up `..` as a ticket where the service would route elsewhere.
 */
function resolveDots(path: string): string {
  try {
    // Appended, not resolved against a base: `//host/…` stays a path, never a host.
    return new URL(`http://simulator.invalid${path.startsWith('/') ? '' : '/'}${path}`).pathname;
  } catch {
    return path;
  }
}

/** The parameters when the path fits the template; undefined when not; null for bad encoding. */
function matchSegments(
  template: readonly string[],
  path: readonly string[],
): Record<string, string> | undefined | null {
  if (template.length !== path.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < template.length; i++) {
    const fixed = template[i]!;
    const actual = path[i]!;
    if (!fixed.startsWith('{')) {
      if (fixed !== actual) return undefined;
      continue;
    }
    if (actual === '') return undefined;
    try {
      params[fixed.slice(1, -1)] = decodeURIComponent(actual);
    } catch {
      return null;
    }
  }
  return params;
}
