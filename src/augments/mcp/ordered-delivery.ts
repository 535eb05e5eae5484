import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';

/**
 * Makes every message a server sent before a response reach its handler before that response.
 * The SDK hands each notification to its handler one microtask later, but a response at once,
 * and a response drops its progress handler: so when a progress notification and the result
 * arrive in one read (as they do over stdio), the last progress was lost about one run in four.
 * Delaying each response by the same one microtask keeps the order the server sent them in.
 * Installed after `connect`, which is when the SDK has put its own `onmessage` in place.
 */
export function deliverResponsesInOrder(transport: Transport): void {
  const deliver = transport.onmessage;
  if (!deliver) return;
  transport.onmessage = (message, extra) => {
    const isResponse = 'id' in message && ('result' in message || 'error' in message) && !('method' in message);
    if (isResponse) queueMicrotask(() => deliver(message, extra));
    else deliver(message, extra);
  };
}
