import { useStdout } from 'ink';
import { createContext, useContext, type ReactNode } from 'react';

/**
 * The terminal's width, as the transcript is laid out at. Usually the terminal's own; a drawing
 * without a terminal (Ink's renderToString) is given the width it is drawn at, which no stdout says.
 */
const ScreenWidthContext = createContext<number | undefined>(undefined);

export function ScreenWidthProvider({ columns, children }: { columns: number; children: ReactNode }) {
  return <ScreenWidthContext.Provider value={columns}>{children}</ScreenWidthContext.Provider>;
}

/** Columns the transcript is drawn in: the width given above, else the terminal's (80 when it says none). */
export function useScreenWidth(): number {
  const given = useContext(ScreenWidthContext);
  const { stdout } = useStdout();
  return given ?? (stdout.columns || 80);
}
