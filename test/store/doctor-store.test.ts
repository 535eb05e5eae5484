import { expect, it } from 'vitest';
import { auggy } from '../helpers/auggy-cli.js';
import { makeAgentFolder } from '../helpers/agent-fixture.js';
import { startChatServer } from '../helpers/chat-server.js';
import { describeWithPostgres, usePostgres } from '../helpers/postgres.js';

const pg = usePostgres();

describeWithPostgres('auggy doctor --store', () => {
  it('says PostgreSQL answers, without the password, and writes no session there', async () => {
    const chat = await startChatServer(() => ({ text: 'OK' }));
    try {
      const { url, database } = await pg.freshDatabase();
      const dir = makeAgentFolder({ engine: `engine:\n  provider: openai-compatible\n  model: test\n  baseURL: ${chat.url}\n` });
      const run = await auggy(['doctor', dir, '--store', url]);
      expect(run.exitCode).toBe(0);
      const store = run.stdout.split('\n').find((line) => line.split(/\s+/)[1] === 'store');
      expect(store).toMatch(new RegExp(`^ok\\s+store\\s+PostgreSQL at .*${database} answers$`));
      const sessions = await pg.cluster().query(database, 'SELECT count(*)::int AS n FROM auggy_sessions');
      expect(sessions[0].n).toBe(0);
    } finally {
      await chat.close();
    }
  });
});
