import { z } from 'zod';
import type { Interrupt } from '../../kernel/interrupt.js';
import type { SessionHandle } from '../../session/session.js';

/** The session's state file of questions a run left open; in the session, so a restart or another replica finds them. */
export const INTERRUPTS_FILE = 'interrupts.json';

const interruptSchema = z.object({
  id: z.string(),
  reason: z.enum(['input_required', 'tool_call']),
  message: z.string(),
  toolCallId: z.string().optional(),
  responseSchema: z.record(z.string(), z.unknown()).optional(),
  expiresAt: z.string().optional(),
});

/**
 * One open question and what finishing it needs: `reply` (request_input) is answered by a new
 * turn whose message is the answer; `call` is a tool call run again with the answers, holding
 * the answers accepted so far and the re-asks used, so the bound holds across runs.
 */
const heldSchema = z.object({
  interrupt: interruptSchema,
  kind: z.enum(['reply', 'call']),
  questionnaireId: z.string().optional(),
  accepted: z.record(z.string(), z.string()).optional(),
  reasks: z.number().int().nonnegative().optional(),
  /** The words of an approval's choices (yes, no, always), which the answer `{approved, always}` picks from. */
  approvalOptions: z.array(z.string()).optional(),
});

export type HeldInterrupt = z.infer<typeof heldSchema>;

const fileSchema = z.object({ version: z.literal(1), held: z.array(heldSchema) });

/** The thread's open questions; a file that does not hold them is set aside (said in the warning) and read as none. */
export function readHeld(session: SessionHandle, warn: (line: string) => void): HeldInterrupt[] {
  const read = session.readState(INTERRUPTS_FILE);
  if (read.status === 'missing') return [];
  if (read.status === 'corrupt') {
    warn(`${INTERRUPTS_FILE} was not JSON; it was set aside as ${read.setAsideTo} and no question is open`);
    return [];
  }
  const parsed = fileSchema.safeParse(read.value);
  if (parsed.success) return parsed.data.held;
  warn(
    `${INTERRUPTS_FILE} does not hold open questions; it was set aside as ${session.setAsideState(INTERRUPTS_FILE, 'not open questions')} and no question is open`,
  );
  return [];
}

export async function writeHeld(session: SessionHandle, held: readonly HeldInterrupt[]): Promise<void> {
  if (held.length === 0) await session.removeState(INTERRUPTS_FILE);
  else await session.writeState(INTERRUPTS_FILE, { version: 1, held });
}

export function isExpired(interrupt: Interrupt, now: Date): boolean {
  return interrupt.expiresAt !== undefined && Date.parse(interrupt.expiresAt) <= now.getTime();
}
