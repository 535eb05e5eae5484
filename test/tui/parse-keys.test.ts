import { describe, expect, it } from 'vitest';
import { createKeyReader, type Keypress } from '../../src/hosts/tui/parse-keys.js';

const read = (...chunks: string[]): Keypress[] => {
  const reader = createKeyReader();
  return chunks.flatMap((chunk) => reader.read(chunk));
};
const key = (name: string, ctrl = false, meta = false) => ({ kind: 'key', name, ctrl, meta });

describe('reading keys from the terminal', () => {
  it('tells Backspace (0x7f) from Delete (ESC [3~)', () => {
    expect(read('\u007f')).toEqual([key('backspace')]);
    expect(read('\b')).toEqual([key('backspace')]);
    expect(read('\u001b[3~')).toEqual([key('delete')]);
  });

  it('reads arrows, home/end in their several spellings, and modifiers', () => {
    expect(read('\u001b[A', '\u001bOB', '\u001b[H', '\u001b[4~', '\u001bOF')).toEqual([key('up'), key('down'), key('home'), key('end'), key('end')]);
    expect(read('\u001b[1;5D')).toEqual([key('left', true)]);
    expect(read('\u001b[1;3C')).toEqual([key('right', false, true)]);
    expect(read('\u001b\u001b[D')).toEqual([key('left', false, true)]);
  });

  it('reads control letters, Alt letters, Escape, Tab and Enter', () => {
    expect(read('\u0003', '\u0004', '\u0017')).toEqual([
      { kind: 'ctrl', letter: 'c' },
      { kind: 'ctrl', letter: 'd' },
      { kind: 'ctrl', letter: 'w' },
    ]);
    expect(read('\u001bb', '\u001b\u007f', '\u001b\r')).toEqual([{ kind: 'meta', char: 'b' }, key('backspace', false, true), key('enter', false, true)]);
    expect(read('\u001b', '\t', '\r', '\n')).toEqual([key('escape'), key('tab'), key('enter'), key('newline')]);
  });

  it('splits typed text around control characters in one chunk', () => {
    expect(read('abc\u007fd\r')).toEqual([{ kind: 'text', text: 'abc' }, key('backspace'), { kind: 'text', text: 'd' }, key('enter')]);
  });

  it('takes a bracketed paste as text, newlines included, even across chunks', () => {
    expect(read('\u001b[200~line one\rline two\u001b[201~')).toEqual([{ kind: 'paste', text: 'line one\nline two' }]);
    expect(read('\u001b[200~', 'a\r\n', 'b', '\u001b[201~', 'x')).toEqual([
      { kind: 'paste', text: 'a\nb' },
      { kind: 'text', text: 'x' },
    ]);
  });

  it('takes several lines in one chunk without brackets as a paste, never as Enter', () => {
    expect(read('one\rtwo\r')).toEqual([{ kind: 'paste', text: 'one\ntwo\n' }]);
  });

  it('takes Enter at the start of a chunk as Enter, with the keys typed after it read late', () => {
    expect(read('\r/hlep')).toEqual([key('enter'), { kind: 'text', text: '/hlep' }]);
    expect(read('\rone\rtwo')).toEqual([key('enter'), { kind: 'paste', text: 'one\ntwo' }]);
  });

  it('drops sequences it does not know instead of typing them', () => {
    expect(read('\u001b[I', '\u001b[99~')).toEqual([]);
  });
});
