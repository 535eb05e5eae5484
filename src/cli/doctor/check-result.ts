/** How one check of `auggy doctor` came out; only `fail` makes the exit code 1. */
export type CheckStatus = 'ok' | 'warn' | 'fail' | 'skip';

export interface CheckResult {
  /** What was checked: `node`, `folder`, `keys`, `model`, `mcp <server>`, `terminal`, `store`. */
  name: string;
  status: CheckStatus;
  /** One sentence: what was found, and for `warn` and `fail` what to do. */
  message: string;
  /** Figures a script may want (the model's answer time, the terminal's size). */
  details?: Record<string, unknown>;
}

const NAME_WIDTH = 9;

/** `ok    model     openai:gpt-5.4-mini answered in 412 ms`. */
export function checkLine(result: CheckResult): string {
  return `${result.status.padEnd(5)} ${result.name.padEnd(NAME_WIDTH)} ${result.message}`;
}

/** The last line: how many failed and warned. */
export function doctorSummary(results: readonly CheckResult[]): string {
  const count = (status: CheckStatus) => results.filter((result) => result.status === status).length;
  const failed = count('fail');
  const warned = count('warn');
  const parts = [failed === 0 ? 'no check failed' : `${failed} check${failed === 1 ? '' : 's'} failed`];
  if (warned > 0) parts.push(`${warned} warning${warned === 1 ? '' : 's'}`);
  return `doctor: ${parts.join(', ')}`;
}
