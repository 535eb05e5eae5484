/**
 * How a JSON answer (a web app's interrupt payload, an ACP form's content) reads as typed at the
 * terminal, so the terminal's reading and refusal messages apply to it unchanged.
 */
export function asTyped(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (Array.isArray(value)) return value.map((item) => asTyped(item)).join(', ');
  if (typeof value === 'number') return String(value);
  return JSON.stringify(value);
}
