/**
 * The observer seam: the one door through which anything that watches payinout (a tracer, a
 * logger) is told what happens. The engine names an event (a call starts, an attempt ends, a
 * lookup runs inside a create, a batch item or a webhook delivery is settled) and the
 * dispatcher (dispatch.ts) tells every observer, containing whatever they throw or return.
 *
 * An event that spans work (`call`, `item`, `delivery`…) is given a `proceed` function: the
 * observer calls it to run the work inside its own context (OpenTelemetry's active span), passing
 * the scope that hears the work's later events. The work runs exactly once whatever the observer
 * does; its result is the engine's, never what the observer returns.
 */

/** What names a call: the table's operation id and path template, never the filled path. */
export interface CallSite {
  method: string;
  /** The table's operation id, `payin.create`; absent for a call outside the table. */
  operation?: string | undefined;
  /** The table's path template, `/api/v1/transaction/{ticket}`. */
  template?: string | undefined;
}

/** One HTTP attempt ended: with a status, or with a failure before one. */
export interface AttemptEvent {
  /** The 1-based number of the HTTP request within the public call (lookups included). */
  attempt: number;
  method: string;
  /** The filled path, with a leading slash: for a log line, never for a span. */
  path: string;
  status: number | undefined;
  /** What failed the attempt when no complete answer came (a network error, a timeout). */
  failure: unknown;
  durationMs: number;
}

/** How work ended: its value, or what it threw. */
export type Ending = { ok: true; value: unknown } | { ok: false; error: unknown };

/**
 * What an observer hands `proceed`: it hears the events of the work it wraps. Every method is
 * optional; `end` is called exactly once, when the work settles.
 */
export interface ObserverScope {
  attempt?(event: AttemptEvent): unknown;
  /** A create is known by this reference; `secrets` lists what no text derived from it may show. */
  reference?(key: string, secrets: () => readonly string[]): unknown;
  /** A reconciliation lookup inside this call; the observer may give it a scope of its own. */
  lookup?(site: CallSite, proceed: Proceed): unknown;
  end?(ending: Ending): unknown;
}

/** Runs the wrapped work (once, however often it is called) and returns its promise. */
export type Proceed = (scope?: ObserverScope | undefined) => unknown;

/** An observer of the events `E` maps (event name → what the event says when it starts). */
export type Observer<E> = { [K in keyof E]?: (start: E[K], proceed: Proceed) => unknown };

/** The events the transport names: each public call. */
export interface CallEvents {
  call: CallSite;
}
