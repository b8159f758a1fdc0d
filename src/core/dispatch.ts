/**
 * The one guarded dispatcher of the observer seam (observer.ts). Whatever an observer throws or
 * returns stops here, by construction:
 * - every hook runs inside try/catch, and its return value is dropped (a rejected promise it
 *   returns is caught, so it is never an unhandled rejection);
 * - the wrapped work runs exactly once: when the observer calls `proceed` during its hook, inside
 *   the observer's context; otherwise right after the hook returns, outside it. An observer that
 *   calls `proceed` late, twice, or never cannot delay, repeat or skip the work;
 * - the engine gets the work's own promise, never the observer's value;
 * - each scope handed to `proceed` has `end` called exactly once, when the work settles.
 * So an observer may cost its own spans or lines, never a result, a second request or a hang.
 */
import type { AttemptEvent, CallSite, Ending, Observer, ObserverScope, Proceed } from './observer.js';

/** Starts one observer's wrap around the work with its `proceed`. */
type Enter = (proceed: Proceed) => unknown;

/** An observer's hook for an event: called with the observer as `this`, what the event says, and `proceed`. */
type Hook = (this: unknown, start: unknown, proceed: Proceed) => unknown;

/** What the engine holds while work runs: the observers' scopes behind guards. */
export class Scope {
  constructor(readonly parts: readonly ObserverScope[]) {}

  attempt(event: AttemptEvent): void {
    for (const part of this.parts) contain(() => part.attempt?.(event));
  }

  reference(key: string, secrets: () => readonly string[]): void {
    for (const part of this.parts) contain(() => part.reference?.(key, secrets));
  }

  /** A lookup inside the call: each observer may give it a scope; one that does not keeps its own. */
  lookup<T>(site: CallSite, run: (scope: Scope | undefined) => Promise<T>): Promise<T> {
    const enters = this.parts.map((part) => {
      const hook = hookOf(part, 'lookup');
      return hook && enterWith(part, hook, site);
    });
    return enterAll(enters, this.parts, (parts) => run(scopeOver(parts)));
  }
}

/** The observers of a client (or of a webhook handler), told of events `E` through guards. */
export class Dispatcher<E> {
  /**
   * Each event's hook per observer, read on the event's first dispatch: the observers are
   * payinout's own (the tracing wing's, the log's), complete when the dispatcher is made, so a
   * call does not look its hooks up again.
   */
  readonly #hooks = new Map<PropertyKey, readonly (Hook | undefined)[]>();

  constructor(readonly observers: readonly Observer<E>[]) {}

  /**
   * Runs `run` once, wrapped by every observer of `event`; resolves or rejects as `run` does.
   * `run` gets no scope when no observer gave one (a tracer whose span nobody records): the work
   * then takes the unobserved path.
   */
  around<K extends keyof E, T>(
    event: K,
    start: E[K],
    run: (scope: Scope | undefined) => Promise<T>,
  ): Promise<T> {
    const { observers } = this;
    const hooks = this.#hooksOf(event);
    if (hooks.length === 1) {
      // The common case (a tracer, or a logger), without the arrays of the general one.
      const hook = hooks[0];
      if (!hook) return run(undefined);
      const alone = (scope: ObserverScope | undefined) => run(scope ? new Scope([scope]) : undefined);
      return enterOne(observers[0], hook, start, alone);
    }
    const enters = hooks.map((hook, i) => hook && enterWith(observers[i], hook, start));
    return enterAll(enters, [], (parts) => run(scopeOver(parts)));
  }

  #hooksOf(event: PropertyKey): readonly (Hook | undefined)[] {
    let hooks = this.#hooks.get(event);
    if (!hooks) {
      hooks = this.observers.map((observer) => hookOf(observer, event));
      this.#hooks.set(event, hooks);
    }
    return hooks;
  }
}

/** A dispatcher of the given observers, or none when there is nothing to tell (no cost per call). */
export function dispatcherOf<E>(observers: readonly (Observer<E> | undefined)[]): Dispatcher<E> | undefined {
  const present = observers.filter((observer): observer is Observer<E> => observer !== undefined);
  return present.length === 0 ? undefined : new Dispatcher(present);
}

/** An observer's hook for `event`; none when it has no such hook (or reading it threw). */
function hookOf(observer: unknown, event: PropertyKey): Hook | undefined {
  const hook = read(() => (observer as Record<PropertyKey, unknown>)[event]);
  return typeof hook === 'function' ? (hook as Hook) : undefined;
}

/** An observer's hook bound to what the event says: the wrap {@link enterAll} nests. */
function enterWith(observer: unknown, hook: Hook, start: unknown): Enter {
  return (proceed) => hook.call(observer, start, proceed);
}

/** The hook {@link enterAll} gives {@link enterOne}: it calls the wrap it is given as the event. */
function callEnter(this: unknown, enter: unknown, proceed: Proceed): unknown {
  return (enter as Enter)(proceed);
}

function scopeOver(parts: readonly ObserverScope[]): Scope | undefined {
  return parts.length === 0 ? undefined : new Scope(parts);
}

/**
 * Nests the observers' wraps, the first outermost, and runs `run` with the scopes they gave;
 * an observer that gave none keeps `keep[i]` (its parent scope for a lookup), if any.
 */
function enterAll<T>(
  enters: readonly (Enter | undefined)[],
  keep: readonly (ObserverScope | undefined)[],
  run: (parts: ObserverScope[]) => Promise<T>,
  index = 0,
  parts: ObserverScope[] = [],
): Promise<T> {
  if (index === enters.length) return run(parts);
  const next = (scope: ObserverScope | undefined) => {
    const part = scope ?? keep[index];
    return enterAll(enters, keep, run, index + 1, part ? [...parts, part] : parts);
  };
  const enter = enters[index];
  return enter ? enterOne(undefined, callEnter, enter, next) : next(undefined);
}

/**
 * One observer's wrap, `hook.call(observer, start, proceed)`: see the file's comment for what is
 * guaranteed. Given the observer and its hook, so a call builds no closure to bind them.
 */
function enterOne<T>(
  observer: unknown,
  hook: Hook,
  start: unknown,
  run: (scope: ObserverScope | undefined) => Promise<T>,
): Promise<T> {
  let work: Promise<T> | undefined;
  let ended: ObserverScope[] | undefined;
  const proceed: Proceed = (given) => {
    const scope = scopeOf(given);
    work ??= started(run, scope);
    if (scope && !ended?.includes(scope)) {
      ended ??= [];
      ended.push(scope);
      endWhenSettled(scope, work);
    }
    return work;
  };
  try {
    const returned = hook.call(observer, start, proceed);
    // A wrap that hands back the work itself (startActiveSpan returning proceed's promise) needs
    // no handler of its own: the engine awaits that promise. Anything else is dropped.
    if (returned !== work) drop(returned);
  } catch {
    // As contain(): an observer's fault costs its own record of the event, nothing else.
  }
  work ??= started(run, undefined);
  return work;
}

function started<T>(
  run: (scope: ObserverScope | undefined) => Promise<T>,
  scope: ObserverScope | undefined,
): Promise<T> {
  try {
    return run(scope);
  } catch (error) {
    return Promise.reject(error);
  }
}

/** Attached before the engine's caller can await the work, so the scope ends first. */
function endWhenSettled(scope: ObserverScope, work: Promise<unknown>): void {
  const end = (ending: Ending) => contain(() => scope.end?.(ending));
  work.then(
    (value) => end({ ok: true, value }),
    (error) => end({ ok: false, error }),
  );
}

/** What an observer passed to `proceed`, if it is something that can hear events. */
function scopeOf(value: unknown): ObserverScope | undefined {
  return (typeof value === 'object' || typeof value === 'function') && value !== null
    ? (value as ObserverScope)
    : undefined;
}

/**
 * Calls into an observer: a throw is dropped, and so is the value (a rejection is caught). The
 * tracing wing calls each Span method this way too.
 */
export function contain(call: () => unknown): void {
  try {
    drop(call());
  } catch {
    // An observer's fault costs its own record of the event, nothing else.
  }
}

/** Drops what an observer returned: a promise among it is never waited for, its rejection caught. */
export function drop(value: unknown): void {
  if ((typeof value === 'object' || typeof value === 'function') && value !== null) {
    const then = (value as { then?: unknown }).then;
    if (typeof then === 'function') then.call(value, undefined, ignore);
  }
}

/** Reads a member of an observer (a getter may throw). */
function read<T>(get: () => T): T | undefined {
  try {
    return get();
  } catch {
    return undefined;
  }
}

function ignore(): void {}
