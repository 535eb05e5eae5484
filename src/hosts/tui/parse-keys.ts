/**
 * Turns raw terminal input into keypresses. Ink's own `useInput` reports Backspace (0x7f) and
 * Delete alike and knows nothing of bracketed paste, so the editor reads the raw sequences.
 */
export type KeyName =
  | 'enter'
  | 'newline'
  | 'backspace'
  | 'delete'
  | 'left'
  | 'right'
  | 'up'
  | 'down'
  | 'home'
  | 'end'
  | 'pageup'
  | 'pagedown'
  | 'tab'
  | 'backtab'
  | 'escape';

export type Keypress =
  | { kind: 'text'; text: string }
  /** Pasted text: inserted as is, newlines included, never submitted. */
  | { kind: 'paste'; text: string }
  | { kind: 'key'; name: KeyName; ctrl: boolean; meta: boolean }
  /** Ctrl plus a letter (`c`, `d`, `w`, ...). */
  | { kind: 'ctrl'; letter: string }
  /** Alt/Meta plus a printable character (`b`, `f`, `d`). */
  | { kind: 'meta'; char: string };

export const PASTE_START = '\u001b[200~';
export const PASTE_END = '\u001b[201~';

const key = (name: KeyName, ctrl = false, meta = false): Keypress => ({ kind: 'key', name, ctrl, meta });

const CSI_FINAL: Record<string, KeyName> = { A: 'up', B: 'down', C: 'right', D: 'left', H: 'home', F: 'end', Z: 'backtab' };
const CSI_TILDE: Record<string, KeyName> = { '1': 'home', '7': 'home', '4': 'end', '8': 'end', '3': 'delete', '5': 'pageup', '6': 'pagedown' };

/** ESC [ params final, or ESC O final: arrows, home/end, delete, with xterm modifier codes. */
function parseEscapeSequence(sequence: string): Keypress | undefined {
  const match = /^\u001b(?:\[|O)([\d;]*)([A-Za-z~])$/.exec(sequence);
  if (!match) return undefined;
  const [, params, final] = match;
  const [first, modifier] = params.split(';');
  const name = final === '~' ? CSI_TILDE[first] : CSI_FINAL[final];
  if (!name) return undefined;
  // xterm modifier: 1 + (shift 1 | alt 2 | ctrl 4).
  const bits = modifier ? Number(modifier) - 1 : 0;
  return key(name, (bits & 4) !== 0, (bits & 2) !== 0);
}

function controlKey(char: string): Keypress | undefined {
  const code = char.charCodeAt(0);
  if (char === '\r') return key('enter');
  if (char === '\n') return key('newline');
  if (char === '\t') return key('tab');
  if (char === '\u007f' || char === '\b') return key('backspace');
  if (char === '\u001b') return key('escape');
  if (code >= 1 && code <= 26) return { kind: 'ctrl', letter: String.fromCharCode(code + 96) };
  return undefined;
}

/** A run of plain characters: text, with control characters as keys in between. */
function parsePlain(raw: string): Keypress[] {
  // A chunk that starts with Enter is a typed Enter the chat read late, together with what was
  // typed next (a busy redraw lets keys pile up); a paste starts with text.
  if (raw.startsWith('\r') && raw.length > 1) return [key('enter'), ...parsePlain(raw.slice(1))];
  // Several lines at once without paste brackets can only be a paste (no one types that fast).
  const body = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
  if (/[\r\n]/.test(body) && body.replace(/[\r\n]/g, '') !== '') return [{ kind: 'paste', text: normalizeNewlines(raw) }];
  const keys: Keypress[] = [];
  let text = '';
  for (const char of raw) {
    const control = char < ' ' || char === '\u007f' ? controlKey(char) : undefined;
    if (control === undefined && (char < ' ' || char === '\u007f')) continue;
    if (control === undefined) {
      text += char;
      continue;
    }
    if (text) keys.push({ kind: 'text', text });
    text = '';
    keys.push(control);
  }
  if (text) keys.push({ kind: 'text', text });
  return keys;
}

export function normalizeNewlines(text: string): string {
  return text.replace(/\r\n?/g, '\n');
}

function parseOne(raw: string): Keypress[] {
  if (!raw.startsWith('\u001b')) return parsePlain(raw);
  if (raw === '\u001b' || raw === '\u001b\u001b') return [key('escape')];
  const sequence = parseEscapeSequence(raw);
  if (sequence) return [sequence];
  if (raw.length === 2) {
    const char = raw[1];
    if (char === '\r') return [key('enter', false, true)];
    if (char === '\u007f' || char === '\b') return [key('backspace', false, true)];
    if (char >= ' ') return [{ kind: 'meta', char }];
  }
  // Meta plus an arrow arrives as ESC ESC [ D.
  if (raw.startsWith('\u001b\u001b')) {
    const inner = parseEscapeSequence(raw.slice(1));
    if (inner?.kind === 'key') return [{ ...inner, meta: true }];
  }
  // Anything else (focus reports, unknown function keys) is dropped rather than typed.
  return [];
}

/**
 * A reader for the chunks Ink hands over (plain runs and single escape sequences). It keeps the
 * state of a bracketed paste, which may arrive in several chunks.
 */
export function createKeyReader(): { read(raw: string): Keypress[] } {
  let paste: string | undefined;
  return {
    read(raw) {
      if (paste !== undefined) {
        const end = raw.indexOf(PASTE_END);
        if (end < 0) {
          paste += raw;
          return [];
        }
        const text = normalizeNewlines(paste + raw.slice(0, end));
        paste = undefined;
        const rest = raw.slice(end + PASTE_END.length);
        return [...(text ? [{ kind: 'paste' as const, text }] : []), ...(rest ? this.read(rest) : [])];
      }
      const start = raw.indexOf(PASTE_START);
      if (start >= 0) {
        const before = raw.slice(0, start);
        paste = '';
        return [...(before ? parseOne(before) : []), ...this.read(raw.slice(start + PASTE_START.length))];
      }
      return raw === '' ? [] : parseOne(raw);
    },
  };
}
