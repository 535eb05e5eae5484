import { createContext, useContext, type ReactNode } from 'react';

/** A colour name Ink understands, or undefined for the terminal's own colour. */
export type Tint = string | undefined;

/** Every colour the chat uses, by role; NO_COLOR swaps in a palette of none. */
export interface Palette {
  accent: Tint;
  question: Tint;
  error: Tint;
  warning: Tint;
  ok: Tint;
  heading: Tint;
  inlineCode: Tint;
  link: Tint;
  /** Syntax highlighting: highlight.js scopes (`keyword`, `string`, ...) to colours. */
  syntax: Readonly<Record<string, Tint>>;
}

const SYNTAX: Record<string, Tint> = {
  keyword: 'magenta',
  built_in: 'cyan',
  type: 'cyan',
  literal: 'blue',
  number: 'yellow',
  string: 'green',
  regexp: 'red',
  'template-variable': 'red',
  subst: undefined,
  symbol: 'yellow',
  comment: 'gray',
  quote: 'gray',
  doctag: 'gray',
  meta: 'gray',
  title: 'blue',
  'title.function': 'blue',
  'title.class': 'cyan',
  function: 'blue',
  params: undefined,
  attr: 'yellow',
  attribute: 'yellow',
  property: 'cyan',
  variable: 'red',
  'selector-tag': 'magenta',
  'selector-class': 'yellow',
  name: 'magenta',
  tag: 'gray',
  addition: 'green',
  deletion: 'red',
  section: 'blue',
  bullet: 'yellow',
  link: 'blue',
};

export const COLOUR_PALETTE: Palette = {
  accent: 'cyan',
  question: 'yellow',
  error: 'red',
  warning: 'yellow',
  ok: 'green',
  heading: 'cyan',
  inlineCode: 'magenta',
  link: 'blue',
  syntax: SYNTAX,
};

export const NO_COLOUR_PALETTE: Palette = {
  accent: undefined,
  question: undefined,
  error: undefined,
  warning: undefined,
  ok: undefined,
  heading: undefined,
  inlineCode: undefined,
  link: undefined,
  syntax: {},
};

/** NO_COLOR (https://no-color.org), set to anything but empty, means no colour; bold and dim stay. */
export function paletteFor(env: NodeJS.ProcessEnv): Palette {
  return env.NO_COLOR !== undefined && env.NO_COLOR !== '' ? NO_COLOUR_PALETTE : COLOUR_PALETTE;
}

const PaletteContext = createContext<Palette>(COLOUR_PALETTE);

export function PaletteProvider({ palette, children }: { palette: Palette; children: ReactNode }) {
  return <PaletteContext.Provider value={palette}>{children}</PaletteContext.Provider>;
}

/** The colours of this chat. */
export function usePalette(): Palette {
  return useContext(PaletteContext);
}
