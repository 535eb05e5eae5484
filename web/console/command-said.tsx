/** What an augment command sent through POST /agent/command said back. */
export interface CommandSaid {
  lines: string[];
  isError: boolean;
}

/** The command's answer under the control that sent it: a refusal or a note, read out as a status. */
export function CommandSaidLine({ said }: { said: CommandSaid | undefined }) {
  if (!said) return null;
  return (
    <p className={said.isError ? 'refusal' : 'note'} role="status">
      {said.lines.join(' ')}
    </p>
  );
}
