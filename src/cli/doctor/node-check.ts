import type { CheckResult } from './check-result.js';

/** package.json's engines.node. */
const OLDEST_MAJOR = 20;
/** Release lines past their end of life that auggy still runs on (20 ended in April 2026). */
const PAST_END_OF_LIFE = new Set([20, 21, 23]);

/** Node's version against `engines.node >= 20`; a line past its end of life works but is said so. */
export function nodeCheck(version: string = process.versions.node): CheckResult {
  const major = Number(version.split('.')[0]);
  const details = { version, engines: `>=${OLDEST_MAJOR}` };
  if (major < OLDEST_MAJOR) {
    return {
      name: 'node',
      status: 'fail',
      message: `Node ${version} is older than auggy needs (>= ${OLDEST_MAJOR}); install Node 24 (the current LTS)`,
      details,
    };
  }
  if (PAST_END_OF_LIFE.has(major)) {
    return {
      name: 'node',
      status: 'warn',
      message: `Node ${version} works, but Node ${major} is past its end of life (no security fixes); move to Node 24 (the current LTS)`,
      details,
    };
  }
  return { name: 'node', status: 'ok', message: `Node ${version} (auggy needs >= ${OLDEST_MAJOR})`, details };
}
