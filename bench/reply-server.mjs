// The streaming benches' shared parts: an agent folder on an openai-compatible server, and that
// server, which streams one long reply as Chat Completions chunks.
import { createServer } from 'node:http';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export function writeAgent(dir, baseURL, name) {
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'agent.yaml'),
    [
      'id: aug1_00000000-0000-4000-8000-000000000010',
      `name: ${name}`,
      'identity: ./identity.md',
      'engine:',
      '  provider: openai-compatible',
      `  model: ${name}`,
      `  baseURL: ${baseURL}`,
      'augments: []',
      '',
    ].join('\n'),
  );
  writeFileSync(join(dir, 'identity.md'), 'You answer at length.\n');
}

/**
 * Streams `reply` in `chunkChars` pieces, then the finish and [DONE]: all at once, or
 * `perSecond` pieces a second (a model's pace).
 */
export function startReplyServer(reply, { chunkChars, perSecond }) {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const chunk = (delta, finish = null) =>
        `data: ${JSON.stringify({ id: 'bench', object: 'chat.completion.chunk', created: 0, model: 'bench', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
      const end = () => res.end(`${chunk({}, 'stop')}data: [DONE]\n\n`);
      res.write(chunk({ role: 'assistant', content: '' }));
      if (perSecond === undefined) {
        for (let at = 0; at < reply.length; at += chunkChars) res.write(chunk({ content: reply.slice(at, at + chunkChars) }));
        end();
        return;
      }
      let at = 0;
      const timer = setInterval(() => {
        if (at >= reply.length) {
          clearInterval(timer);
          end();
          return;
        }
        res.write(chunk({ content: reply.slice(at, at + chunkChars) }));
        at += chunkChars;
      }, 1000 / perSecond);
      res.on('close', () => clearInterval(timer));
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}
