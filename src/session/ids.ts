import { randomBytes } from 'node:crypto';

/** Session ids are also folder names, so only this shape ever reaches the disk. */
const SESSION_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;

export function isValidSessionId(id: string): boolean {
  return SESSION_ID_PATTERN.test(id);
}

/** Sortable by creation time: `20261201-003512-a1b2c3`. */
export function newSessionId(now = new Date()): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  return `${stamp}-${randomBytes(3).toString('hex')}`;
}

export function newRunId(): string {
  return `run_${randomBytes(6).toString('hex')}`;
}
