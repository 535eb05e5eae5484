import type { KernelEvent } from '../../kernel/events.js';

/**
 * The event a decided approval is, apart from how it is decided (approval.ts): hosts read it to
 * say who decided what, without loading the MCP augment itself.
 */
export const APPROVAL_EVENT = 'mcp.approval';

/** Who decided: the person, a standing `--allow-tool`, an earlier "always", or nobody being there. */
export type ApprovalSource = 'person' | 'allow-tool' | 'session' | 'nobody';

export interface ApprovalEventValue {
  toolCallId: string;
  toolName: string;
  server: string;
  tool: string;
  arguments: Record<string, unknown>;
  decision: 'approved' | 'refused';
  by: ApprovalSource;
  /** The person chose "always for this session". */
  always?: boolean;
}

export function approvalEvent(value: ApprovalEventValue): KernelEvent {
  return { type: 'CUSTOM', name: APPROVAL_EVENT, value };
}

/** The decision of an approval event, for hosts that say it. */
export function approvalOf(event: KernelEvent): ApprovalEventValue | undefined {
  return event.type === 'CUSTOM' && event.name === APPROVAL_EVENT ? (event.value as ApprovalEventValue) : undefined;
}

/** `approved by you: mcp_fs_write_file`, or the standing rule that approved it, or why it was denied. */
export function approvalLine(value: Pick<ApprovalEventValue, 'toolName' | 'decision' | 'by' | 'always'>): string {
  const tool = value.toolName;
  if (value.decision === 'refused') return value.by === 'nobody' ? `denied, nobody at the prompt to approve: ${tool}` : `denied by you: ${tool}`;
  switch (value.by) {
    case 'person':
      return value.always ? `approved by you, and always for the rest of this session: ${tool}` : `approved by you: ${tool}`;
    case 'session':
      return `approved, as you said always for this session: ${tool}`;
    case 'allow-tool':
      return `approved by --allow-tool: ${tool}`;
    case 'nobody':
      return `approved: ${tool}`;
  }
}
