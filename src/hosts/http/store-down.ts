/** What a client is told while the session store is down: when to retry, not where the store is. */
export const STORE_DOWN = 'the session store cannot be reached just now, so no thread can be opened or written; try again shortly';
export const STORE_RETRY_SECONDS = '5';
