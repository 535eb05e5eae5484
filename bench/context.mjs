// The context meter and compaction: what auggy itself spends, with the model call taken out (an
// instant model), so the figures say whether the model call dominates. Figures only.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

function row(name, value, unit) {
  return { name, value, unit };
}

/** A session log of `turns` turns: the person's 1,500 characters, a tool call and its result, a reply. */
function sessionEntries(turns) {
  const at = new Date(0).toISOString();
  const entries = [{ kind: 'header', version: 1, sessionId: 'bench', agentName: 'bench', createdAt: at }];
  for (let n = 0; n < turns; n++) {
    const turnId = `run_${n}`;
    entries.push({ kind: 'user', turnId, text: `turn ${n}: ${'lorem ipsum dolor sit amet '.repeat(55)}`.slice(0, 1500), at });
    entries.push({
      kind: 'message',
      turnId,
      message: { role: 'assistant', content: [{ type: 'tool-call', toolCallId: `c${n}`, toolName: 'lookup', input: { q: n } }] },
    });
    entries.push({
      kind: 'message',
      turnId,
      message: { role: 'tool', content: [{ type: 'tool-result', toolCallId: `c${n}`, toolName: 'lookup', output: { type: 'text', value: 'x'.repeat(300) } }] },
    });
    entries.push({ kind: 'message', turnId, message: { role: 'assistant', content: [{ type: 'text', text: `answer ${n}` }] } });
  }
  return entries;
}

function median(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

export async function benchContext({ root }) {
  const load = (path) => import(pathToFileURL(join(root, 'dist', path)).href);
  const { ContextMeter } = await load('kernel/context/context-meter.js');
  const { compactTranscript } = await load('kernel/context/compact-transcript.js');
  const { compactPolicy } = await load('kernel/context/compact-policy.js');
  const { transcriptWithTurns } = await load('session/transcript.js');
  const { scriptedSummary } = await load('model/scripted/summary-reply.js');

  // 250 turns of four messages: a 1,000-message session.
  const entries = sessionEntries(250);
  const { messages } = transcriptWithTurns(entries);
  const system = 'You are a bench agent.\n'.repeat(40);

  // The meter as a turn reads it: the provider's count of the last call, then the reply and the next message estimated.
  const meter = new ContextMeter(200_000);
  meter.measured(150_000, messages.length - 2);
  const readings = [];
  for (let i = 0; i < 2000; i++) {
    const start = process.hrtime.bigint();
    meter.reading(system, messages);
    readings.push(Number(process.hrtime.bigint() - start) / 1e3);
  }
  const estimateOnly = new ContextMeter(200_000);
  const estimates = [];
  for (let i = 0; i < 200; i++) {
    const start = process.hrtime.bigint();
    estimateOnly.reading(system, messages);
    estimates.push(Number(process.hrtime.bigint() - start) / 1e3);
  }

  const policy = compactPolicy({ provider: 'scripted', model: 'bench', maxContextTokens: 200_000 }, 4096);
  const instant = async ({ prompt }) => ({ ok: true, text: scriptedSummary(prompt), usage: { inputTokens: 0, outputTokens: 0 } });
  const compactions = [];
  const rebuilds = [];
  for (let i = 0; i < 15; i++) {
    const start = process.hrtime.bigint();
    const turns = transcriptWithTurns(entries);
    const outcome = await compactTranscript({
      reason: 'command',
      transcript: turns,
      system,
      policy,
      tokensBefore: 190_000,
      complete: instant,
      maxOutputTokens: 2048,
    });
    compactions.push(Number(process.hrtime.bigint() - start) / 1e6);
    if (!outcome.ok) throw new Error(`the bench compaction failed: ${outcome.why}`);
    const rebuildStart = process.hrtime.bigint();
    transcriptWithTurns([...entries, outcome.entry]);
    rebuilds.push(Number(process.hrtime.bigint() - rebuildStart) / 1e6);
  }
  return [
    row('context meter per reading (provider count + estimate of 2 new messages)', median(readings), 'µs median'),
    row('context meter, whole 1,000-message transcript estimated', median(estimates), 'µs median'),
    row('compaction of a 1,000-message session, auggy only (instant model)', median(compactions), 'ms median'),
    row('rebuild of that session with its compaction (resume)', median(rebuilds), 'ms median'),
  ];
}
