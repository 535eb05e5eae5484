import { useApp, useStdout } from 'ink';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useAboveFrame } from './above-frame.js';
import { handleChatKey } from './chat-keys.js';
import { buildRegistry, findCommand, helpLines, parseCommandLine, type CommandRegistry } from './command-registry.js';
import { awayIndicator, presenceCommands } from './questionnaire/presence-commands.js';
import { createTuiPerson } from './questionnaire/tui-person.js';
import { useQuestionnaire, type QuestionnaireScreen } from './questionnaire/use-questionnaire.js';
import { CLEAR_SCREEN } from './theme.js';
import { tuiCommands } from './tui-commands.js';
import { useCommandMenu, type CommandMenu } from './use-command-menu.js';
import { useConversation, type ConversationControls, type ConversationSetup } from './use-conversation.js';
import { useInputEditor, type InputEditor } from './use-input-editor.js';
import { useKeys } from './use-keys.js';
import { useMessageQueue, useQueueDrain, type MessageQueue } from './use-message-queue.js';
import { useQuitArm } from './use-quit-arm.js';
import { useReprintOnResize } from './use-reprint-on-resize.js';
import { useSubmit } from './use-submit.js';
import type { SessionHandle } from '../../session/session.js';
import { describeModel } from '../../model/model-spec.js';
import { sessionCostLine } from './usage-text.js';
import { modelCommand } from './model-command.js';

export interface ChatSetup extends ConversationSetup {
  /** Earlier inputs, oldest first, for up/down. */
  history: string[];
  /** Keeps a submitted line for the next run. */
  saveHistory(entry: string): void;
  /** How to resume this chat, shown by /session. */
  resumeHint(sessionId: string): string;
  /** Told the session the chat ends in (after /clear it is a new one). */
  onQuit?(session: Pick<SessionHandle, 'id' | 'entries'>): void;
}

export interface Chat {
  controls: ConversationControls;
  editor: InputEditor;
  menu: CommandMenu;
  /** What was sent during the turn, waiting for it to end. */
  queue: MessageQueue;
  notice?: string;
  indicators: string[];
  /** Quitting: the input and status are taken away so the last frame is the transcript alone. */
  exiting: boolean;
  /** Keys are read: what is typed from now on reaches the input. */
  ready: boolean;
  /** The agent's open question, drawn in the input's place. */
  questionnaire: QuestionnaireScreen;
}

/** The chat screen's state and key handling; the App only draws it. */
export function useChat(setup: ChatSetup): Chat {
  const { exit } = useApp();
  const { stdout } = useStdout();
  const clearScreen = useCallback(() => stdout.write(CLEAR_SCREEN), [stdout]);
  // The person at this terminal, who answers the agent's questionnaires (or is /away).
  const tui = useMemo(() => createTuiPerson(), []);
  const controls = useConversation({ ...setup, person: tui.person }, clearScreen);
  const { conversation, settle, clear, showLines, reprint } = controls;
  const editor = useInputEditor(setup.history, setup.saveHistory);
  const [notice, setNotice] = useState<string | undefined>(undefined);
  const quitArm = useQuitArm((armed) => setNotice(armed ? 'press Ctrl+C again to quit' : undefined));
  const quitting = useRef(false);
  /** Esc was pressed once while an augment keeps the floor (a goal): the next Esc cancels. */
  const escArmed = useRef(false);
  const [exiting, setExiting] = useState(false);
  // The props object is new on every render; callbacks read the latest through a ref.
  const latestSetup = useRef(setup);
  latestSetup.current = setup;
  const latestUsage = useRef(controls.view.usage);
  latestUsage.current = controls.view.usage;

  const quit = useCallback(() => {
    if (quitting.current) return;
    quitting.current = true;
    latestSetup.current.onQuit?.(conversation.session);
    void settle().then(() => setExiting(true));
  }, [settle, conversation]);
  // Ink is told to exit once the frame without input and status has been drawn, and what was
  // finished last is printed.
  const aboveFrame = useAboveFrame();
  useEffect(() => {
    if (!exiting) return;
    aboveFrame?.flush();
    exit();
  }, [exiting, exit, aboveFrame]);

  const registryRef = useRef<CommandRegistry>({ commands: [], shadowed: [] });
  const own = useMemo(
    () =>
      tuiCommands({
        helpLines: () => helpLines(registryRef.current),
        sessionLines: () => [
          `session ${conversation.session.id}${conversation.session.resumed ? ' (resumed)' : ''}`,
          // A session in a database has no folder: the line names the store (never its password).
          conversation.session.dir === undefined
            ? `store   ${conversation.sessionStore?.location ?? conversation.session.location}`
            : `folder  ${conversation.session.dir}`,
          `resume  ${latestSetup.current.resumeHint(conversation.session.id)}`,
          sessionCostLine(latestUsage.current, describeModel(conversation.modelSpec)),
        ],
        clear: async () => [`new conversation: session ${(await clear()).session.id}`],
        // What it did, or why not, comes as a line on the conversation's own stream.
        compact: async (keepHint) => {
          try {
            const done = await conversation.compact(keepHint);
            // Only a refusal while a turn runs is not said on the conversation's stream.
            return !done.ok && done.busy ? [done.why] : [];
          } catch (error) {
            // Another auggy holds the session (SessionBusyError): said as it is.
            return [error instanceof Error ? error.message : String(error)];
          }
        },
        model: (spec) => modelCommand(conversation, spec),
        exit: quit,
      }),
    [conversation, clear, quit],
  );
  const registry = useMemo(() => buildRegistry([...own, ...presenceCommands(tui)], conversation.commands()), [own, conversation, tui]);
  registryRef.current = registry;
  useEffect(() => {
    if (registry.shadowed.length > 0) showLines([`augment commands hidden by a command of the same name: /${registry.shadowed.join(', /')}`], 'warning');
  }, [registry, showLines]);

  // A resumed session whose goal was still running when the last chat stopped goes on by itself;
  // a paused one waits for /goal resume.
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, for the session the chat opened on.
  useEffect(() => {
    const pending = conversation.session.resumed ? conversation.pendingContinuation() : undefined;
    if (!pending) return;
    showLines([`${pending.by} restored: the agent goes on working toward it (Esc twice pauses it)`], 'info');
    controls.continueWith(pending);
  }, []);

  const menu = useCommandMenu(registry, editor.state.text);
  const queue = useMessageQueue();
  const { submit, runQueued } = useSubmit({ controls, registry, editor, queue, setNotice });
  useReprintOnResize(stdout, reprint);

  // A remark about the turn ("canceling…") ends with it.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the turn starts or ends, which is what the dependency says.
  useEffect(() => setNotice(undefined), [controls.view.running]);

  const questionnaire = useQuestionnaire(tui, {
    runCommand: (line) => {
      const parsed = parseCommandLine(line);
      if (!parsed || !findCommand(registry, parsed.name)) return false;
      submit(line);
      return true;
    },
  });

  // A question on screen holds the queue: its lines are never taken as the answer to a form.
  useQueueDrain(queue, {
    idle: () => !controls.isRunning() && !quitting.current && tui.snapshot().question === undefined,
    run: runQueued,
  });

  const ready = useKeys((key) => {
    // A question on screen takes the keys first; Ctrl+C still reaches the chat.
    if (questionnaire.handleKey(key)) return;
    const ctrlC = key.kind === 'ctrl' && key.letter === 'c';
    const armed = quitArm.armed();
    if (!ctrlC) quitArm.disarm();
    const escKey = key.kind === 'key' && key.name === 'escape';
    if (!escKey) escArmed.current = false;
    setNotice(undefined);
    handleChatKey(key, {
      editor: editor.current,
      running: controls.isRunning(),
      canceling: controls.isCanceling(),
      quitArmed: armed,
      menu,
      change: editor.edit,
      setText: editor.set,
      vertical: editor.vertical,
      stash: editor.commit,
      recalled: editor.recalled,
      queue: {
        size: queue.size,
        removeLast: () => void queue.takeLast(),
        editLast: () => {
          const text = queue.takeLast();
          if (text !== undefined) editor.set(text);
        },
      },
      submit,
      cancel: () => {
        controls.cancel();
        setNotice('canceling…');
      },
      cancelByEscape: () => {
        // While the agent keeps the floor over many turns, one stray Esc must not stop it.
        const holder = conversation.floorHolder();
        if (holder !== undefined && !escArmed.current) {
          escArmed.current = true;
          setNotice(`Esc again cancels and pauses the ${holder}`);
          return;
        }
        escArmed.current = false;
        controls.cancel();
        setNotice('canceling…');
      },
      quit,
      armQuit: quitArm.arm,
      redraw: reprint,
    });
  });

  const away = awayIndicator(tui);
  const indicators = away ? [...conversation.indicators(), away] : conversation.indicators();
  return { controls, editor, menu, queue, notice, indicators, exiting, ready, questionnaire };
}
