import { formatDiagnostic, type Diagnostic } from '../../agent/types.js';
import type { CheckResult } from './check-result.js';

/** validate's findings as one line: the first error (or warning) and how many more. */
export function folderCheck(shown: string, diagnostics: readonly Diagnostic[]): CheckResult {
  const errors = diagnostics.filter((d) => d.severity === 'error');
  const warnings = diagnostics.filter((d) => d.severity === 'warning');
  const details = { errors: errors.length, warnings: warnings.length };
  const more = (count: number) => (count > 1 ? ` (and ${count - 1} more: auggy validate ${shown} lists them)` : '');
  if (errors.length > 0) return { name: 'folder', status: 'fail', message: `${formatDiagnostic(errors[0])}${more(errors.length)}`, details };
  if (warnings.length > 0) return { name: 'folder', status: 'warn', message: `${formatDiagnostic(warnings[0])}${more(warnings.length)}`, details };
  return { name: 'folder', status: 'ok', message: `${shown} loads: no problems found`, details };
}
