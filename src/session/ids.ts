/** Session ids are also folder names, so only this shape ever reaches the disk. */
const SESSION_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;

/**
 * `byteCount` random bytes as hex, for ids and temporary names. None of these is a secret; they
 * must only not collide, which Math.random does as well as a cryptographic source here (V8 seeds
 * it per process from the system's entropy). An import of node:crypto loads twenty-one of Node's
 * modules at every start, Web Crypto's global nine (docs/performance.md, round six).
 */
export function randomHex(byteCount: number): string {
  let hex = '';
  for (let index = 0; index < byteCount; index++)
    hex += Math.floor(Math.random() * 256)
      .toString(16)
      .padStart(2, '0');
  return hex;
}

export function isValidSessionId(id: string): boolean {
  return SESSION_ID_PATTERN.test(id);
}

/** Sortable by creation time: `20261201-003512-a1b2c3`. */
export function newSessionId(now = new Date()): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  return `${stamp}-${randomHex(3)}`;
}

export function newRunId(): string {
  return `run_${randomHex(6)}`;
}
