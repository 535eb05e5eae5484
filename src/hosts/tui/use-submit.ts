import { useCallback, useMemo } from 'react';
import {
  findCommand,
  messageText,
  parseCommandLine,
  runCommand,
  unknownCommandMessage,
  type CommandRegistry,
  type RegisteredCommand,
} from './command-registry.js';
import type { InputEditor } from './use-input-editor.js';
import type { ConversationControls } from './use-conversation.js';
import type { MessageQueue } from './use-message-queue.js';

export interface SubmitDeps {
  controls: ConversationControls;
  registry: CommandRegistry;
  editor: InputEditor;
  queue: MessageQueue;
  setNotice(text: string | undefined): void;
}

export interface Submit {
  /** Enter on the line. */
  submit(text: string): void;
  /** A queued line, now that the chat is idle: what Enter would have done with it then. */
  runQueued(text: string): Promise<void>;
}

/** A line read as Enter takes it: a message (`//` starts one with a slash), or a command, known or not. */
type Line =
  | { kind: 'message'; text: string }
  | { kind: 'no-name' }
  | { kind: 'unknown'; name: string }
  | { kind: 'command'; command: RegisteredCommand; args: string };

function readLine(registry: CommandRegistry, text: string): Line {
  const parsed = text.startsWith('//') ? undefined : parseCommandLine(text);
  if (!parsed) return { kind: 'message', text: messageText(text) };
  if (parsed.name === '') return { kind: 'no-name' };
  const command = findCommand(registry, parsed.name);
  return command ? { kind: 'command', command, args: parsed.args } : { kind: 'unknown', name: parsed.name };
}

/**
 * What Enter does with the line: run a slash command, or send a message to the agent. While a
 * turn runs (or earlier lines still wait), a message, and a command that waits for the turn's
 * end, join the queue, to go in order once the turn ends; a command marked `duringTurn` runs at
 * once. An unknown command is said so and cleared, kept in the history for ↑ to fix it.
 */
export function useSubmit({ controls, registry, editor, queue, setNotice }: SubmitDeps): Submit {
  const run = useCallback(
    async (command: RegisteredCommand, args: string, text: string) => {
      controls.echo(text.trim());
      const output = await runCommand(command, args);
      // Lines typed while it held the conversation (/compact, /model) may go now.
      queue.recheck();
      if (output.lines.length > 0) controls.showLines(output.lines, output.isError ? 'error' : 'info');
      // A command that starts a turn (`/goal <condition>`): the person's message, or the augment's directive.
      const start = output.startTurn;
      if (!start || output.isError) return;
      const started = start.by === undefined ? controls.send(start.message) : controls.continueWith({ directive: start.message, by: start.by });
      if (!started) setNotice('a turn is running: the command took effect, and its turn did not start');
    },
    [controls, queue, setNotice],
  );

  const submit = useCallback(
    (text: string) => {
      if (text.trim() === '') return;
      // Behind a running turn or lines already waiting, so the queue keeps the order typed.
      const waits = controls.isRunning() || queue.size() > 0;
      const line = readLine(registry, text);
      switch (line.kind) {
        case 'message':
          if (waits || !controls.send(line.text)) queue.add(text);
          editor.commit(text);
          return;
        case 'no-name':
          setNotice('type a command name after the slash; /help lists them');
          return;
        case 'unknown':
          editor.commit(text);
          controls.showLines([unknownCommandMessage(registry, line.name)], 'error');
          return;
        case 'command':
          editor.commit(text);
          if (waits && !line.command.duringTurn) queue.add(text);
          else void run(line.command, line.args, text);
          return;
      }
    },
    [controls, registry, editor, queue, setNotice, run],
  );

  const runQueued = useCallback(
    async (text: string) => {
      const line = readLine(registry, text);
      switch (line.kind) {
        case 'message':
          controls.send(line.text);
          return;
        case 'command':
          return run(line.command, line.args, text);
        case 'unknown':
          // The registry changed while it waited (a /clear's new conversation).
          controls.showLines([unknownCommandMessage(registry, line.name)], 'error');
          return;
        case 'no-name':
          return;
      }
    },
    [controls, registry, run],
  );

  return useMemo(() => ({ submit, runQueued }), [submit, runQueued]);
}
