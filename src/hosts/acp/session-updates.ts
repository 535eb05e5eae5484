import type { SessionUpdate, ToolCallContent } from '@agentclientprotocol/sdk';
import { systemLineOf, type KernelEvent } from '../../kernel/events.js';
import { isShownAsReply, personFacingArgs } from '../person-facing.js';

/** What the mapper asks of the conversation: the MCP server a tool comes from, the board as plan entries. */
export interface UpdateSources {
  mcpServerOf(toolName: string): string | undefined;
  /** The board's lines now, when the event changed them (undefined: no board). */
  plan(): SessionUpdate | undefined;
}

function textContent(text: string): ToolCallContent[] {
  return [{ type: 'content', content: { type: 'text', text } }];
}

function parsedArgs(text: string): unknown {
  if (text === '') return {};
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/**
 * The kernel's events as ACP `session/update`s, for a live turn and for a replayed log alike:
 * text as `agent_message_chunk`, each tool call as `tool_call` then `tool_call_update`s
 * (pending → in_progress → completed/failed with its result), system lines (the user ask's
 * verdict, warnings) as `agent_thought_chunk`, board changes as `plan`. request_input's call is
 * its question, already the reply's text, so it has no tool line (as in the terminal).
 */
export class SessionUpdateMapper {
  private readonly calls = new Map<string, { name: string; args: string }>();
  private readonly hidden = new Set<string>();

  constructor(private readonly sources: UpdateSources) {}

  map(event: KernelEvent): SessionUpdate[] {
    switch (event.type) {
      case 'TEXT_MESSAGE_CONTENT':
        return event.delta === '' ? [] : [{ sessionUpdate: 'agent_message_chunk', messageId: event.messageId, content: { type: 'text', text: event.delta } }];
      case 'TOOL_CALL_START': {
        if (isShownAsReply(event.toolCallName)) {
          this.hidden.add(event.toolCallId);
          return [];
        }
        this.calls.set(event.toolCallId, { name: event.toolCallName, args: '' });
        const server = this.sources.mcpServerOf(event.toolCallName);
        return [
          {
            sessionUpdate: 'tool_call',
            toolCallId: event.toolCallId,
            title: server === undefined ? event.toolCallName : `${event.toolCallName} (MCP server ${server})`,
            name: event.toolCallName,
            kind: 'other',
            status: 'pending',
            ...(server === undefined ? {} : { _meta: { auggy: { mcpServer: server } } }),
          },
        ];
      }
      case 'TOOL_CALL_ARGS': {
        const call = this.calls.get(event.toolCallId);
        if (call) call.args += event.delta;
        return [];
      }
      case 'TOOL_CALL_END': {
        const call = this.calls.get(event.toolCallId);
        if (!call) return [];
        return [
          {
            sessionUpdate: 'tool_call_update',
            toolCallId: event.toolCallId,
            status: 'in_progress',
            rawInput: parsedArgs(personFacingArgs(call.name, call.args)),
          },
        ];
      }
      case 'TOOL_CALL_RESULT': {
        if (this.hidden.has(event.toolCallId)) return [];
        this.calls.delete(event.toolCallId);
        return [
          {
            sessionUpdate: 'tool_call_update',
            toolCallId: event.toolCallId,
            status: event.isError === true ? 'failed' : 'completed',
            content: textContent(event.content),
            rawOutput: event.content,
          },
        ];
      }
      case 'CUSTOM': {
        const line = systemLineOf(event);
        return line !== undefined ? [{ sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: `${line}\n` } }] : [];
      }
      case 'STATE_SNAPSHOT':
      case 'STATE_DELTA': {
        const plan = this.sources.plan();
        return plan ? [plan] : [];
      }
      default:
        return [];
    }
  }

  /** How the call is shown when the person is asked to allow it (`session/request_permission`). */
  describeCall(toolName: string): { title: string; name: string } {
    const server = this.sources.mcpServerOf(toolName);
    return { title: server === undefined ? toolName : `${toolName} (MCP server ${server})`, name: toolName };
  }
}
