import type { AgentContext, PromptResponse, SessionUpdate } from '@agentclientprotocol/sdk';
import { loggedKernelEvent } from '../../kernel/events.js';
import type { Conversation, TurnOptions } from '../../kernel/conversation.js';
import { holdFloor } from '../../kernel/hold-floor.js';
import type { HostScope } from '../../kernel/host-scope.js';
import { continuedLine } from '../continued-turn.js';
import { type MessageStart, startFromMessage } from '../slash-command.js';
import { AcpPerson } from './acp-person.js';
import { availableCommands } from './agent-commands.js';
import { boardPlan } from './board-plan.js';
import { SessionUpdateMapper } from './session-updates.js';
import { floorResponse } from './turn-ending.js';
import type { PromptInput } from './prompt-text.js';
import { attachmentRefsOf, loadAttachment } from '../../session/attachments.js';

export interface AcpSessionOptions {
  conversation: Conversation;
  client: AgentContext;
  /** The client advertised `elicitation.form`. */
  forms: boolean;
  /** The MCP server a tool name comes from, when it is one of the mcp augment's. */
  mcpServerOf(conversation: Conversation, toolName: string): string | undefined;
  /** The session's own scope (the editor's MCP servers), closed with the session. */
  ownScope?: HostScope;
}

/**
 * One ACP session: an ordinary auggy session (the same log `auggy run --session ID` continues),
 * its turns streamed to the editor as `session/update`s in the order they happened.
 */
export class AcpSession {
  private running: AbortController | undefined;
  /** Updates go out one after another; a prompt's response waits for its turn's last one. */
  private sent: Promise<void> = Promise.resolve();
  private readonly rejectedAlways = new Set<string>();
  readonly conversation: Conversation;

  constructor(private readonly options: AcpSessionOptions) {
    this.conversation = options.conversation;
  }

  get id(): string {
    return this.conversation.session.id;
  }

  private mapper(): SessionUpdateMapper {
    return new SessionUpdateMapper({
      mcpServerOf: (toolName) => this.options.mcpServerOf(this.conversation, toolName),
      plan: () => boardPlan(this.conversation.sharedState()),
    });
  }

  send(update: SessionUpdate): void {
    this.sent = this.sent
      .then(() => this.options.client.notify('session/update', { sessionId: this.id, update }))
      // A client gone away loses its updates; the turn itself is kept in the session.
      .catch(() => undefined);
  }

  async flushed(): Promise<void> {
    await this.sent;
  }

  /** The agent's slash commands, which work when sent as a prompt. */
  announceCommands(): void {
    this.send({ sessionUpdate: 'available_commands_update', availableCommands: availableCommands(this.conversation.commands()) });
  }

  /** `session/load`: the whole history again, as the updates it streamed then. */
  async replay(): Promise<void> {
    const mapper = this.mapper();
    for (const entry of this.conversation.session.entries().entries) {
      // A turn an augment started (a goal's next) was no message of the person's: a thought, as it streamed.
      if (entry.kind === 'user' && entry.by !== undefined)
        this.send({ sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: `${continuedLine(entry.by)}\n` } });
      else if (entry.kind === 'user') {
        this.send({ sessionUpdate: 'user_message_chunk', content: { type: 'text', text: entry.text } });
        // The images the message carried, from the session, as the editor sent them.
        for (const attachment of attachmentRefsOf(entry.attachments)) {
          const data = loadAttachment(this.conversation.session, attachment.ref);
          if (data)
            this.send({
              sessionUpdate: 'user_message_chunk',
              content: { type: 'image', data: Buffer.from(data).toString('base64'), mimeType: attachment.mediaType },
            });
        }
      } else if (entry.kind === 'event') mapper.map(loggedKernelEvent(entry.event)).forEach((update) => this.send(update));
    }
    await this.flushed();
  }

  /**
   * One prompt: a message (with its images), or a command it names (`/goal …`), and every turn an
   * augment continues it with (a goal's loop), all streamed as this prompt's updates; the
   * response says how the whole run ended.
   */
  async prompt({ text, images }: PromptInput): Promise<PromptResponse> {
    if (this.running) throw new Error('a turn is already running in this session; cancel it or wait for its end');
    const controller = new AbortController();
    this.running = controller;
    try {
      // The session's one writer for the whole prompt, as in every host: a command may write the
      // session's state (the ask, the board), and its turns follow under the same lease.
      return await this.conversation.asWriter(async () => {
        const started = await startFromMessage(this.conversation, text, { images });
        const ran = started.command;
        if (ran) {
          this.send({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: `${ran.output.lines.join('\n')}\n` } });
          this.announceCommands();
        }
        if (started.first) return await this.holdFloor(started.first, controller.signal, ran?.name);
        await this.flushed();
        return { stopReason: 'end_turn', _meta: { auggy: { command: started.command.name, ...(started.command.output.isError ? { status: 'failed' } : {}) } } };
      });
    } finally {
      this.running = undefined;
    }
  }

  private async holdFloor(first: NonNullable<MessageStart['first']>, signal: AbortSignal, commandName?: string): Promise<PromptResponse> {
    const mapper = this.mapper();
    const person = new AcpPerson({
      client: this.options.client,
      sessionId: this.id,
      forms: this.options.forms,
      describeCall: (toolName) => mapper.describeCall(toolName),
      rejectedAlways: this.rejectedAlways,
    });
    const unsubscribe = this.conversation.subscribe((event) => mapper.map(event).forEach((update) => this.send(update)));
    // ACP's usage_update is the context window: what the next call would send, of the model's limit
    // (0 where the folder states none), read from the meter after every model call.
    const sendUsage = (tokens?: { inputTokens: number; outputTokens: number }) => {
      const reading = this.conversation.contextReading();
      this.send({
        sessionUpdate: 'usage_update',
        used: reading.used,
        size: reading.limit ?? 0,
        ...(tokens ? { _meta: { auggy: { inputTokens: tokens.inputTokens, outputTokens: tokens.outputTokens } } } : {}),
      });
    };
    try {
      const options: TurnOptions = { signal, person, onModelUsage: (usage) => sendUsage(usage) };
      const floor = await holdFloor(this.conversation, () => first(options), {
        ...options,
        // The editor sees why the agent goes on by itself, as a thought between the turns.
        onContinue: ({ by }) => this.send({ sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: `${continuedLine(by)}\n` } }),
      });
      await this.flushed();
      return floorResponse(floor, this.conversation.snapshot(), commandName);
    } finally {
      unsubscribe();
    }
  }

  /** `session/cancel`: the turn stops at once; what was said so far stays in the session. */
  cancel(): void {
    this.running?.abort();
  }

  async close(): Promise<void> {
    this.cancel();
    await this.flushed();
    await this.conversation.session.close().catch(() => undefined);
    await this.conversation.close();
    await this.options.ownScope?.close();
  }
}
