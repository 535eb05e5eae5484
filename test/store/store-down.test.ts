import { expect, it } from 'vitest';
import { copyExample } from '../helpers/agent-fixture.js';
import { postRun, readEvents, runInput } from '../helpers/agui-events.js';
import { describeWithPostgres, usePostgres } from '../helpers/postgres.js';
import { startServe } from '../helpers/serve-process.js';

const pg = usePostgres();

describeWithPostgres('serve while its PostgreSQL store is down', () => {
  it('new runs get 503 with Retry-After and no connection details, and /health says the store is unreachable', async () => {
    const { url, database } = await pg.freshDatabase();
    const serve = await startServe(copyExample('demo'), ['--store', url]);
    try {
      const healthy = await fetch(`${serve.url}/health`);
      expect(healthy.status).toBe(200);
      const first = await postRun(serve.url, runInput('t-up', 'hello'));
      expect(first.status).toBe(200);
      await readEvents(first);

      await pg.cluster().stop();

      const refused = await postRun(serve.url, runInput('t-down', 'hello'));
      expect(refused.status).toBe(503);
      expect(refused.headers.get('retry-after')).toBe('5');
      const body = (await refused.json()) as { error: string };
      expect(body.error).toBe('the session store cannot be reached just now, so no thread can be opened or written; try again shortly');
      // The known thread too: it is reopened for every run on a shared store.
      expect((await postRun(serve.url, runInput('t-up', 'again'))).status).toBe(503);

      const health = await fetch(`${serve.url}/health`);
      expect(health.status).toBe(503);
      expect(await health.json()).toEqual({ status: 'unhealthy', store: 'unreachable', message: body.error });

      // Where the store is goes to the operator's log, and nowhere a client reads.
      for (const secret of [database, String(pg.cluster().port), 'auggy@']) expect(body.error).not.toContain(secret);
      expect(serve.stderr()).toMatch(new RegExp(`refused the connection.*${pg.cluster().port}|${pg.cluster().port}.*refused the connection`));
    } finally {
      serve.signal('SIGTERM');
      await serve.exited;
    }
  });
});
