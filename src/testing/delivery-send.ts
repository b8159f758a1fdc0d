/** One POST of a webhook delivery and what the delivery log keeps of its answer. */

/** How much of a receiver's answer the delivery log keeps. */
export const ANSWER_EXCERPT_CHARS = 200;

/** What one POST got: a status and the start of the answer, or the network error. */
export interface SendOutcome {
  status?: number;
  answer?: string;
  error?: string;
}

export interface SendInput {
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/** POSTs the delivery's exact bytes once; never throws. */
export async function sendOnce(
  send: typeof fetch,
  delivery: SendInput,
  timeoutMs: number,
): Promise<SendOutcome> {
  try {
    const response = await send(delivery.url, {
      method: 'POST',
      headers: delivery.headers,
      body: delivery.body,
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    });
    return { status: response.status, answer: await excerpt(response) };
  } catch (error) {
    return { error: error instanceof Error ? describeError(error) : String(error) };
  }
}

/** The start of the answer's body, read without holding more than a few KB of it. */
async function excerpt(response: Response): Promise<string> {
  const reader = response.body?.getReader();
  if (!reader) return '';
  const decoder = new TextDecoder();
  let text = '';
  try {
    while (text.length < ANSWER_EXCERPT_CHARS) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
  return text.length > ANSWER_EXCERPT_CHARS ? `${text.slice(0, ANSWER_EXCERPT_CHARS)}…` : text;
}

/** 'fetch failed (ECONNREFUSED)' rather than a bare 'fetch failed'. */
function describeError(error: Error): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  const detail = cause?.code ?? cause?.message;
  const text = `${error.name}: ${error.message}`;
  return detail ? `${text} (${detail})` : text;
}
