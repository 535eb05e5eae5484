import { useCallback } from 'react';
import { findCommand, parseCommandLine, runCommand, unknownCommandMessage, type CommandRegistry } from './command-registry.js';
import type { InputEditor } from './use-input-editor.js';
import type { ConversationControls } from './use-conversation.js';

export interface SubmitDeps {
  controls: ConversationControls;
  registry: CommandRegistry;
  editor: InputEditor;
  setNotice(text: string | undefined): void;
}

/**
 * What Enter does with the line: run a slash command, or send a message to the agent. A message
 * that cannot go now (a turn runs) stays in the input line; an unknown command is said so and
 * cleared, kept in the history for ↑ to fix it.
 */
export function useSubmit({ controls, registry, editor, setNotice }: SubmitDeps): (text: string) => void {
  return useCallback(
    (text: string) => {
      if (text.trim() === '') return;
      const running = controls.isRunning();
      // `//` sends a message that starts with a slash.
      const parsed = text.startsWith('//') ? undefined : parseCommandLine(text);
      if (!parsed) {
        if (running || !controls.send(text.startsWith('//') ? text.slice(1) : text)) {
          setNotice('a turn is running: press Enter again once it ends, or Esc to cancel it');
          return;
        }
        editor.commit(text);
        return;
      }
      if (parsed.name === '') {
        setNotice('type a command name after the slash; /help lists them');
        return;
      }
      const command = findCommand(registry, parsed.name);
      if (!command) {
        editor.commit(text);
        controls.showLines([unknownCommandMessage(registry, parsed.name)], 'error');
        return;
      }
      if (running && !command.duringTurn) {
        setNotice(`/${command.name} waits until the turn ends (Esc cancels it)`);
        return;
      }
      editor.commit(text);
      controls.echo(text.trim());
      void runCommand(command, parsed.args).then((output) => {
        if (output.lines.length > 0) controls.showLines(output.lines, output.isError ? 'error' : 'info');
        // A command that starts a turn (`/goal <condition>`): the person's message, or the augment's directive.
        const start = output.startTurn;
        if (!start || output.isError) return;
        const started = start.by === undefined ? controls.send(start.message) : controls.continueWith({ directive: start.message, by: start.by });
        if (!started) setNotice('a turn is running: the command took effect, and its turn did not start');
      });
    },
    [controls, registry, editor, setNotice],
  );
}
