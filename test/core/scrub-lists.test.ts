/**
 * scrubText works out its echo patterns once per list of secrets (redact.ts): a list reused
 * after it changed is never scrubbed with the patterns of what it held before.
 */
import { describe, expect, it } from 'vitest';
import { REDACTED, scrubText } from '../../src/core/redact.js';

describe('scrubText with a list of secrets used again', () => {
  it('scrubs what the list holds now, after an element changed or one was added', () => {
    const secrets = ['s3cret-Alpha'];
    expect(scrubText('echo s3cret-Alpha and Maria Lopez', secrets)).toBe(`echo ${REDACTED} and Maria Lopez`);
    secrets[0] = 'Maria Lopez';
    expect(scrubText('echo s3cret-Alpha and MARIA LOPEZ', secrets)).toBe(`echo s3cret-Alpha and ${REDACTED}`);
    secrets.push('s3cret-Alpha');
    expect(scrubText('s3cret-Alpha, then lopez alone', secrets)).toBe(`${REDACTED}, then ${REDACTED} alone`);
  });

  it('gives the same text for two equal lists, and leaves text alone with an empty one', () => {
    const text = 'Documento 1020304050 de Ana Pérez no válido';
    const a = ['1020304050', 'Ana Pérez'];
    expect(scrubText(text, a)).toBe(scrubText(text, [...a]));
    expect(scrubText(text, a)).toBe(`Documento ${REDACTED} de ${REDACTED} no válido`);
    expect(scrubText(text, [])).toBe(text);
  });
});
