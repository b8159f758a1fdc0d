/**
 * Limits every part of the SDK shares, each defined once: the client's deadlines, the webhook
 * classes' durations and the CLI's options check against the same timer limit; both senders cap
 * answers at the same size.
 */

/**
 * The longest delay a timer supports, 2³¹ − 1 ms (about 24.8 days): longer ones fire at once in
 * every runtime, so a longer deadline or duration is refused where it is given.
 */
export const MAX_TIMER_MS = 2_147_483_647;

/**
 * The largest answer read, in bytes (decoded): the service's answers are a few kilobytes, and a
 * server or proxy that streams without end must not exhaust the merchant's memory before the
 * deadline. A larger body fails like a cut one (node_modules/payinout/docs/reliability.md or https://github.com/payinout/payinout/blob/main/docs/reliability.md, "Retry table").
 */
export const MAX_ANSWER_BYTES = 32 * 1024 * 1024;
