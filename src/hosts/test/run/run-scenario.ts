import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TurnStatus, KernelEvent } from '../../../kernel/events.js';
import { Conversation, type TurnOptions } from '../../../kernel/conversation.js';
import { holdFloor } from '../../../kernel/hold-floor.js';
import { type MessageStart, startFromMessage } from '../../slash-command.js';
import { createHostScope } from '../../../kernel/host-scope.js';
import type { ModelBuilder } from '../../../model/model-cache.js';
import { openSession } from '../../../session/session.js';
import type { TurnResult } from '../../../kernel/turn-loop.js';
import type { AgentTarget } from '../../open-conversation.js';
import type { Scope } from '../assertions/scope.js';
import type { Scenario, ScenarioTurn, SelfPlay } from '../scenario/types.js';
import type { SelfPlayRole } from '../scenario/self-play-config.js';
import { findPersona, personaFolders, personaPrompt } from '../scenario/persona.js';
import { shownPath } from '../scenario/find-scenarios.js';
import { choosePlayer } from './persona-player.js';
import { conversationScope, turnScope } from './observe-turn.js';
import { evaluateAll, failsRun, type AssertionOutcome } from './evaluate.js';
import { scenarioPerson } from './scenario-person.js';
import { readTurnImages } from './read-turn-images.js';
import { imageRefusal } from '../../../kernel/image-input.js';

export interface TurnReport {
  index: number;
  line?: number;
  content?: string;
  /** A self-play turn's message: which of the persona's messages this is (1-based), and whose. */
  round?: number;
  persona?: string;
  status?: TurnStatus;
  message?: string;
  durationMs: number;
  /** What went wrong before the checks (a board line or event refused): each one fails the run. */
  problems: string[];
  /** Worth knowing but not a failure (fields the scripted person had no answer for). */
  notes: string[];
  assertions: AssertionOutcome[];
}

export interface RunReport {
  passed: boolean;
  canceled: boolean;
  durationMs: number;
  turns: TurnReport[];
  conversation: AssertionOutcome[];
}

export interface RunOptions {
  target: AgentTarget;
  /** Models built once for the whole test run and shared, like serve shares them across threads. */
  models: ModelBuilder;
  signal: AbortSignal;
  warn(message: string): void;
  onTurn?(turn: ScenarioTurn): void;
  /** `--judge-model provider:model`: runs PromptKit's LLM-judged types, skipped without it. */
  judgeModel?: string;
  /** Who plays self-play roles: self-play.yaml's roles, and `--persona-model provider:model`. */
  selfPlay?: { roles: readonly SelfPlayRole[]; personaModel?: string };
}

/** The person's board lines and the workflow event, applied before the message as --board and --event would be. */
async function applyHostInputs(conversation: Conversation, turn: ScenarioTurn): Promise<string[]> {
  const problems: string[] = [];
  for (const { line, text } of turn.board) {
    const value = `${line}=${text}`;
    const refused = conversation.checkHostInput('board', value);
    const applied = refused ?? (await conversation.hostInput('board', value));
    if (!applied.ok)
      problems.push(`board line ${line} was not written: ${applied.unclaimed ? 'the agent has no board augment' : (applied.reason ?? applied.message)}`);
  }
  if (turn.event !== undefined) {
    const applied = await conversation.hostInput('event', turn.event);
    if (!applied.ok)
      problems.push(`event ${turn.event} was not applied: ${applied.unclaimed ? 'the agent has no workflow augment' : (applied.reason ?? applied.message)}`);
  }
  return problems;
}

/** A turn loaded but not run: each of its checks is reported skipped with the reason, never passed. */
function skippedTurn(turn: ScenarioTurn, why: string, scope: Scope): { report: TurnReport; scope: Scope } {
  const assertions = turn.assertions.map((assertion) => ({
    type: assertion.type,
    line: assertion.line,
    column: assertion.column,
    message: assertion.message,
    status: 'skipped' as const,
    expected: 'the turn to run',
    actual: `skipped: ${why}`,
  }));
  return { report: { index: turn.index, line: turn.line, content: turn.content, durationMs: 0, problems: [], notes: [why], assertions }, scope };
}

/** A turn that could not start (an image part that is not one): a problem that fails the run, its checks not run. */
function problemTurn(turn: ScenarioTurn, problem: string, scope: Scope): { report: TurnReport; scope: Scope } {
  const { report } = skippedTurn(turn, problem, scope);
  return { report: { ...report, notes: [], problems: [problem] }, scope };
}

/**
 * A step's content as the chat runs it, on the road every host takes (startFromMessage, then
 * holdFloor): a command it names (`/goal …`) runs, and every turn an augment continues it with runs
 * too, so the step's result is the whole run: all it said and called, and how it ended. Undefined
 * when a command started no turn.
 */
async function runContent(
  conversation: Conversation,
  content: string,
  options: TurnOptions,
  problems: string[],
  commands: boolean,
): Promise<TurnResult | undefined> {
  // A persona's message is the person talking: a leading slash in it is text, not a command.
  const started: MessageStart = commands
    ? await startFromMessage(conversation, content)
    : { first: (turnOptions) => conversation.runTurn(content, turnOptions) };
  const ran = started.command;
  if (ran?.output.isError) problems.push(`/${ran.name} refused: ${ran.output.lines.join(' ')}`);
  const first = started.first;
  if (!first) return undefined;
  return (await holdFloor(conversation, () => first(options), options)).whole;
}

/** What a turn sends: the scenario's message, or one a persona wrote for a self-play turn. */
interface TurnMessage {
  content?: string;
  commands: boolean;
  round?: number;
  persona?: string;
}

async function runTurn(
  conversation: Conversation,
  turn: ScenarioTurn,
  options: RunOptions,
  message: TurnMessage = { content: turn.content, commands: true },
): Promise<{ report: TurnReport; scope: Scope }> {
  if (turn.skip !== undefined) {
    return skippedTurn(turn, turn.skip, turnScope({ events: [], result: undefined, snapshot: conversation.snapshot(), transcript: conversation.transcript() }));
  }
  const emptyScope = () => turnScope({ events: [], result: undefined, snapshot: conversation.snapshot(), transcript: conversation.transcript() });
  const read = await readTurnImages(turn.images);
  if (!read.ok) return problemTurn(turn, `its image could not be sent: ${read.why}`, emptyScope());
  // A model the folder says takes no images: the turn is not run, rather than failed for the agent.
  const refused = imageRefusal(read.images, conversation.agent.engine.vision);
  if (refused !== undefined) return skippedTurn(turn, `its image parts are not sent: ${refused}`, emptyScope());
  const started = Date.now();
  const events: KernelEvent[] = [];
  const unsubscribe = conversation.subscribe((event) => events.push(event));
  const person = scenarioPerson(turn.person);
  let result: TurnResult | undefined;
  let problems: string[];
  try {
    problems = await applyHostInputs(conversation, turn);
    if (message.content !== undefined || read.images.length > 0)
      result = await runContent(conversation, message.content ?? '', { signal: options.signal, person, images: read.images }, problems, message.commands);
  } finally {
    unsubscribe();
  }
  const scope = turnScope({ events, result, snapshot: conversation.snapshot(), transcript: conversation.transcript() });
  const assertions = await evaluateAll(turn.assertions, scope, { complete: conversation.complete, signal: options.signal, judgeModel: options.judgeModel });
  const notes = person.unscripted.map(
    ({ field, took }) => `the scripted person had no answer for field ${field}, so it ${took === 'default' ? 'took the default' : 'declined it'}`,
  );
  return {
    report: {
      index: turn.index,
      line: turn.line,
      content: message.content,
      ...(message.round !== undefined ? { round: message.round, persona: message.persona } : {}),
      status: result?.status,
      message: result?.message,
      durationMs: Date.now() - started,
      problems,
      notes,
      assertions,
    },
    scope,
  };
}

/**
 * A self-play turn as PromptKit's Arena plays it: the persona writes a message, the agent answers
 * it as a turn of its own with the turn's checks, `turns` times, or up to `max_turns` when the
 * persona ends with PromptKit's completion marker once `turns` are done. A turn that cannot be
 * played (no persona file, nobody to play it) is skipped with the reason; a message the player
 * could not write fails the run.
 */
async function runSelfPlay(
  conversation: Conversation,
  scenario: Scenario,
  turn: ScenarioTurn & { selfPlay: SelfPlay },
  options: RunOptions,
  counter: { selfPlayMessages: number },
): Promise<{ report: TurnReport; scope: Scope }[]> {
  const emptyScope = () => turnScope({ events: [], result: undefined, snapshot: conversation.snapshot(), transcript: conversation.transcript() });
  const { role, persona: id, turns, maxTurns } = turn.selfPlay;
  if (turn.skip !== undefined) return [skippedTurn(turn, turn.skip, emptyScope())];
  const notPlayed = (why: string) => [skippedTurn(turn, `its self-play messages were not played: ${why}`, emptyScope())];
  const found = findPersona(id, personaFolders(scenario.folder, options.target.agent.dir), (path) => shownPath(path));
  if (!found.ok) return notPlayed(found.why);
  const prompt = personaPrompt(found.persona);
  if (!prompt.ok) return notPlayed(prompt.why);
  const chosen = await choosePlayer(role, {
    agent: options.target.agent,
    agentSpec: options.target.modelSpec,
    models: options.models,
    roles: options.selfPlay?.roles ?? [],
    personaModel: options.selfPlay?.personaModel,
  });
  if ('why' in chosen) return notPlayed(chosen.why);
  const reports: { report: TurnReport; scope: Scope }[] = [];
  for (let round = 1; round <= maxTurns && !options.signal.aborted; round++) {
    counter.selfPlayMessages++;
    const written = await chosen.player.next({
      persona: found.persona,
      scenarioId: scenario.id,
      transcript: conversation.transcript(),
      selfPlayIndex: counter.selfPlayMessages,
      duplex: scenario.duplex,
      mayEnd: maxTurns > turns,
      signal: options.signal,
    });
    if (options.signal.aborted) break;
    const failed = (problem: string) => {
      const { report, scope } = problemTurn(turn, `persona ${id}'s message ${round} ${problem}`, emptyScope());
      reports.push({ report: { ...report, round, persona: id }, scope });
    };
    if (!written.ok) {
      failed(`was not written: ${written.why}`);
      break;
    }
    const ended = (after: number) => reports.at(-1)?.report.notes.push(`persona ${id} ended the conversation after ${after} of up to ${maxTurns} messages`);
    if (written.text === '') {
      // Only the marker after a message: the persona has nothing more to say. Otherwise an empty
      // message is the player's fault, and the checks never ran.
      if (written.complete && reports.length > 0) ended(round - 1);
      else failed('was empty');
      break;
    }
    const ran = await runTurn(conversation, turn, options, { content: written.text, commands: false, round, persona: id });
    if (round === 1) ran.report.notes.unshift(`persona ${id} was played by ${chosen.player.who}`);
    reports.push(ran);
    if (written.complete && round >= turns) {
      if (round < maxTurns) ended(round);
      break;
    }
  }
  return reports;
}

/**
 * One run of a scenario in a fresh session that lives in a temp folder outside the agent folder
 * and is removed afterwards: the folder's own sessions are never read or written. Each run has a
 * host scope of its own, closed however the run ends, so the MCP servers it started are stopped
 * before the next run starts one afresh.
 */
export async function runScenarioOnce(scenario: Scenario, options: RunOptions): Promise<RunReport> {
  const started = Date.now();
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'auggy-test-')));
  const { agent, modelSpec } = options.target;
  const turns: TurnReport[] = [];
  const scopes: Scope[] = [];
  const host = createHostScope();
  try {
    const session = await openSession({ agentDir: root, agentName: agent.yaml.name, agentId: agent.yaml.id });
    const conversation = await Conversation.open({
      agent,
      augmentTypes: options.target.augmentTypes,
      // The scripted provider may be a PromptKit mock config, whose responses are keyed by scenario.
      modelSpec: modelSpec.provider === 'scripted' ? { ...modelSpec, scenario: scenario.id } : modelSpec,
      session,
      warn: options.warn,
      models: options.models,
      host,
    });
    const counter = { selfPlayMessages: 0 };
    for (const turn of scenario.turns) {
      if (options.signal.aborted) break;
      options.onTurn?.(turn);
      const ran = turn.selfPlay
        ? await runSelfPlay(conversation, scenario, { ...turn, selfPlay: turn.selfPlay }, options, counter)
        : [await runTurn(conversation, turn, options)];
      for (const { report, scope } of ran) {
        turns.push(report);
        scopes.push(scope);
      }
    }
    const canceled = options.signal.aborted;
    const conversationOutcomes = canceled
      ? []
      : await evaluateAll(scenario.conversationAssertions, conversationScope(scopes), {
          complete: conversation.complete,
          signal: options.signal,
          judgeModel: options.judgeModel,
        });
    const passed = !canceled && turns.every((turn) => turn.problems.length === 0 && !turn.assertions.some(failsRun)) && !conversationOutcomes.some(failsRun);
    return { passed, canceled, durationMs: Date.now() - started, turns, conversation: conversationOutcomes };
  } finally {
    await host.close();
    rmSync(root, { recursive: true, force: true });
  }
}
