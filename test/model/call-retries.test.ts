import { APICallError } from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import { ModelRetriesError, retryDelayMs, withRetries } from '../../src/model/call-retries.js';
import { ProviderTimeoutError } from '../../src/model/idle-timeout.js';

function refusal(statusCode: number, responseHeaders?: Record<string, string>): APICallError {
  return new APICallError({ message: `HTTP ${statusCode}`, url: 'http://127.0.0.1/v1/chat/completions', requestBodyValues: {}, statusCode, responseHeaders });
}

const NOW = Date.parse('2026-12-01T12:00:00Z');

describe('the wait before a retry', () => {
  it('is what the server asks: retry-after-ms first, then retry-after in seconds or as a date', () => {
    expect(retryDelayMs(refusal(429, { 'retry-after-ms': '1500.5', 'retry-after': '9' }), 2000, NOW)).toBe(1500.5);
    expect(retryDelayMs(refusal(429, { 'retry-after': '7' }), 2000, NOW)).toBe(7000);
    expect(retryDelayMs(refusal(503, { 'retry-after': 'Tue, 01 Dec 2026 12:00:05 GMT' }), 2000, NOW)).toBe(5000);
    expect(retryDelayMs(refusal(503, { 'retry-after': '0' }), 2000, NOW)).toBe(0);
  });

  it('is the backoff when the server asks nothing, nonsense, the past, or a minute or more beyond the backoff', () => {
    expect(retryDelayMs(refusal(500), 2000, NOW)).toBe(2000);
    expect(retryDelayMs(new Error('socket hang up'), 4000, NOW)).toBe(4000);
    expect(retryDelayMs(refusal(429, { 'retry-after-ms': 'soon' }), 2000, NOW)).toBe(2000);
    expect(retryDelayMs(refusal(429, { 'retry-after': 'Mon, 30 Nov 2026 12:00:00 GMT' }), 2000, NOW)).toBe(2000);
    expect(retryDelayMs(refusal(429, { 'retry-after': '3600' }), 2000, NOW)).toBe(2000);
    // Over a minute is still taken when the backoff itself would wait longer.
    expect(retryDelayMs(refusal(429, { 'retry-after': '70' }), 128_000, NOW)).toBe(70_000);
  });
});

describe('retrying a model call', () => {
  const signal = new AbortController().signal;

  it('makes one attempt with no retries allowed, and throws its error as it is', async () => {
    let attempts = 0;
    const error = refusal(503);
    await expect(withRetries(async () => (attempts++, Promise.reject(error)), { maxRetries: 0, signal })).rejects.toBe(error);
    expect(attempts).toBe(1);
  });

  it('never retries an abort or the idle timeout: both are told at once', async () => {
    for (const error of [new DOMException('aborted', 'AbortError'), new ProviderTimeoutError(1)]) {
      let attempts = 0;
      const waits: number[] = [];
      await expect(
        withRetries(async () => (attempts++, Promise.reject(error)), { maxRetries: 2, signal, wait: async (ms) => void waits.push(ms) }),
      ).rejects.toBe(error);
      expect(attempts).toBe(1);
      expect(waits).toEqual([]);
    }
  });

  it('stops at a refusal another try cannot mend, holding every error so far', async () => {
    const errors = [refusal(503), refusal(400)];
    let attempts = 0;
    const thrown: unknown = await withRetries(async () => Promise.reject(errors[attempts++]), { maxRetries: 2, signal, wait: async () => undefined }).catch(
      (error: unknown) => error,
    );
    expect(thrown).toBeInstanceOf(ModelRetriesError);
    expect((thrown as ModelRetriesError).errors).toEqual(errors);
    expect((thrown as ModelRetriesError).lastError).toBe(errors[1]);
    expect(attempts).toBe(2);
  });

  it('waits on the timer and gives up the wait as soon as the call is aborted', async () => {
    const controller = new AbortController();
    let attempts = 0;
    const attempt = async () => {
      attempts++;
      // Aborted once the refusal is in and the wait for the retry has begun.
      setImmediate(() => controller.abort());
      throw refusal(503, { 'retry-after': '30' });
    };
    await expect(withRetries(attempt, { maxRetries: 2, signal: controller.signal })).rejects.toMatchObject({ name: 'AbortError' });
    expect(attempts).toBe(1);
  });
});
