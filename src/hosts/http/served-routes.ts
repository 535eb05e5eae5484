import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * Routes a protocol adds to the one HTTP server `auggy serve` runs (A2A beside AG-UI): the
 * server checks Host and Origin first and hands over the request; the routes answer it whole.
 */
export interface ServedRoutes {
  /** Each path and the method it takes. */
  readonly routes: Readonly<Record<string, string>>;
  /** Answers a request for one of `routes`, with the method already checked. `headers`: CORS. */
  handle(path: string, req: IncomingMessage, res: ServerResponse, headers: Record<string, string>): Promise<void>;
  /** What runs now, so shutdown lets it finish for the grace period and then stops it. */
  runs(): { controller: AbortController; settled: Promise<void> }[];
}
