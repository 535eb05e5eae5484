import { useCallback, useRef, useState } from 'react';
import { commandSuggestions, type CommandRegistry, type RegisteredCommand } from './command-registry.js';

interface MenuState {
  text: string;
  selected: number;
  dismissed: boolean;
  /** The person moved the highlight: Enter on a bare `/` then means that command. */
  moved: boolean;
  /** Tab is cycling through these names; the text is the one it last put in the input. */
  cycle?: { names: string[]; index: number };
}

/** The longest start every name shares, compared without case, in the first name's spelling. */
export function commonPrefix(names: readonly string[]): string {
  if (names.length === 0) return '';
  let length = names[0].length;
  for (const name of names.slice(1)) {
    let same = 0;
    while (same < length && same < name.length && name[same].toLowerCase() === names[0][same].toLowerCase()) same++;
    length = same;
  }
  return names[0].slice(0, length);
}

export interface CommandMenu {
  /** Commands matching the drawn text; empty when the menu is closed. */
  items: RegisteredCommand[];
  selected: number;
  /**
   * The highlighted command for `text` as it is now: keys of one chunk of input are handled
   * before the menu is drawn again, so key handling never trusts the drawn list.
   */
  chosen(text: string): RegisteredCommand | undefined;
  /** Whether Enter should take the highlighted command: a name was typed or the highlight moved. */
  picked(text: string): boolean;
  isOpen(text: string): boolean;
  move(text: string, direction: -1 | 1): void;
  /** Esc closes the menu until the text changes. */
  dismiss(text: string): void;
  /**
   * Tab: the text completed as far as the matching names agree, then, pressed again, each
   * match in turn. Undefined when there is nothing to complete.
   */
  tab(text: string): string | undefined;
}

/** The list of matching commands shown while a command name is typed. */
export function useCommandMenu(registry: CommandRegistry, text: string): CommandMenu {
  // The menu state lives in a ref, read when keys are handled; the counter only asks for a redraw.
  const latest = useRef<MenuState>({ text, selected: 0, dismissed: false, moved: false });
  const [, redraw] = useState(0);
  // Esc closes the menu for the text it was closed on; once the line changes (the `/` deleted and
  // typed again), that is forgotten, or the same text later would find the menu still closed.
  if (latest.current.text !== text) latest.current = { text, selected: 0, dismissed: false, moved: false };
  const stateFor = useCallback(
    (current: string): MenuState => (latest.current.text === current ? latest.current : { text: current, selected: 0, dismissed: false, moved: false }),
    [],
  );
  const update = useCallback((next: MenuState) => {
    latest.current = next;
    redraw((count) => count + 1);
  }, []);
  const itemsFor = useCallback((current: string) => (stateFor(current).dismissed ? [] : commandSuggestions(registry, current)), [registry, stateFor]);

  const items = itemsFor(text);
  const selected = Math.min(stateFor(text).selected, Math.max(0, items.length - 1));
  const chosen = useCallback(
    (current: string) => {
      const list = itemsFor(current);
      return list[Math.min(stateFor(current).selected, list.length - 1)];
    },
    [itemsFor, stateFor],
  );
  const isOpen = useCallback((current: string) => itemsFor(current).length > 0, [itemsFor]);
  const move = useCallback(
    (current: string, direction: -1 | 1) => {
      const count = itemsFor(current).length;
      const state = stateFor(current);
      if (count > 0) update({ ...state, selected: (state.selected + direction + count) % count, moved: true });
    },
    [itemsFor, stateFor, update],
  );
  const picked = useCallback((current: string) => current.trim() !== '/' || stateFor(current).moved, [stateFor]);
  const dismiss = useCallback((current: string) => update({ text: current, selected: 0, dismissed: true, moved: false }), [update]);
  const tab = useCallback(
    (current: string) => {
      const state = stateFor(current);
      if (state.cycle) {
        const index = (state.cycle.index + 1) % state.cycle.names.length;
        const text = `/${state.cycle.names[index]}`;
        update({ text, selected: 0, dismissed: false, moved: true, cycle: { names: state.cycle.names, index } });
        return text;
      }
      const list = itemsFor(current);
      if (list.length === 0) return undefined;
      if (list.length === 1) {
        const [only] = list;
        return `/${only.name}${only.usage ? ' ' : ''}`;
      }
      const names = list.map((command) => command.name);
      const typed = current.slice(1);
      const prefix = commonPrefix(names);
      if (prefix.length > typed.length) return `/${prefix}`;
      // Nothing more in common: Tab walks the matches, starting at the highlighted one.
      const index = Math.min(state.selected, names.length - 1);
      const text = `/${names[index]}`;
      update({ text, selected: 0, dismissed: false, moved: true, cycle: { names, index } });
      return text;
    },
    [itemsFor, stateFor, update],
  );
  return { items, selected, chosen, picked, isOpen, move, dismiss, tab };
}
