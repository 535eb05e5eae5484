import { useStdin } from 'ink';
import { useEffect, useRef, useState } from 'react';
import { createKeyReader, type Keypress } from './parse-keys.js';

/**
 * Calls `handler` for every keypress. It reads the raw sequences Ink has split off stdin (the
 * event emitter behind `useInput`), so Backspace, Delete and bracketed pastes stay distinct.
 * Returns whether keys are being read yet (the terminal is in raw mode from then on).
 */
export function useKeys(handler: (key: Keypress) => void, active = true): boolean {
  const { setRawMode, internal_eventEmitter: emitter } = useStdin();
  const latest = useRef(handler);
  latest.current = handler;
  const [listening, setListening] = useState(false);

  useEffect(() => {
    if (!active) return;
    setRawMode(true);
    return () => setRawMode(false);
  }, [active, setRawMode]);

  useEffect(() => {
    if (!active) return;
    const reader = createKeyReader();
    const onInput = (raw: string) => {
      for (const key of reader.read(raw)) latest.current(key);
    };
    emitter.on('input', onInput);
    setListening(true);
    return () => {
      emitter.off('input', onInput);
      setListening(false);
    };
  }, [active, emitter]);
  return listening;
}
