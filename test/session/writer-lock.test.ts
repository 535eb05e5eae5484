import { describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { existsSync, linkSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileWriterLock, SessionBusyError, openSession, sessionsRoot, type SessionHandle } from '../../src/session/session.js';
import { folderStore } from '../../src/session/folder-store.js';
import { currentProcess, isStillRunning } from '../../src/session/process-identity.js';

async function newSession() {
  const agentDir = mkdtempSync(join(tmpdir(), 'auggy-lock-'));
  const session = await openSession({ agentDir, agentName: 'demo' });
  return { agentDir, session, lockFile: join(session.dir, 'writer.lock') };
}

/** The pid of a process that has ended. */
async function deadPid(): Promise<number> {
  const child = execa('node', ['-e', '0']);
  const pid = child.pid ?? -1;
  await child;
  return pid;
}

function writeLock(path: string, fields: Record<string, unknown>): void {
  writeFileSync(path, JSON.stringify({ host: hostname(), token: 'old-token', acquiredAt: new Date(0).toISOString(), ...fields }));
}

describe('one writer per session', () => {
  it('a second writer is refused at once, naming the holder; after release the next one gets it', async () => {
    const { agentDir, session, lockFile } = await newSession();
    const lease = await session.acquireWriter();
    expect(JSON.parse(readFileSync(lockFile, 'utf8'))).toMatchObject({ pid: process.pid, host: hostname() });
    // Another process would hold its own lock object over the same folder; the file is what counts.
    const other = new FileWriterLock(sessionsRoot(agentDir));
    const refused = await other.acquireWriter(session.id).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(SessionBusyError);
    expect((refused as Error).message).toBe(`session ${session.id} is in use by another auggy (pid ${process.pid}); wait for it or use another session`);
    await lease.release();
    expect(existsSync(lockFile)).toBe(false);
    const next = await other.acquireWriter(session.id);
    expect(next.notices).toEqual([]);
    await next.release();
  });

  it('a lock whose process is gone is taken over with one notice', async () => {
    const { session, lockFile } = await newSession();
    const pid = await deadPid();
    writeLock(lockFile, { pid, startedAt: Date.now() - 60_000 });
    const lease = await session.acquireWriter();
    expect(lease.notices).toEqual([`session ${session.id} was locked by auggy pid ${pid}, which is no longer running; it was taken over`]);
    expect(JSON.parse(readFileSync(lockFile, 'utf8'))).toMatchObject({ pid: process.pid });
    await lease.release();
  });

  it('our own pid with another start is an earlier process that had the pid (a restarted container): taken over', async () => {
    const { session, lockFile } = await newSession();
    const self = currentProcess();
    writeLock(lockFile, { pid: process.pid, startedAt: self.startedAt - 3_600_000, startTicks: (self.startTicks ?? 1000) - 500, bootId: self.bootId });
    const lease = await session.acquireWriter();
    expect(lease.notices).toEqual([expect.stringMatching(/no longer running; it was taken over/)]);
    await lease.release();
  });

  it('a running pid that started at another moment than the lock says is a reused pid; a lock from before a reboot is dead', (context) => {
    const self = currentProcess();
    context.skip(self.startTicks === undefined || self.bootId === undefined, 'no /proc here: only whether the pid exists can be checked');
    // The parent (vitest) runs, but it did not start at tick 1.
    expect(isStillRunning({ pid: process.ppid, startedAt: self.startedAt, host: self.host, startTicks: 1, bootId: self.bootId }, self)).toBe(false);
    expect(isStillRunning({ ...self, bootId: 'an-earlier-boot' }, self)).toBe(false);
    expect(isStillRunning({ ...self, startTicks: 1, host: 'another-machine' }, self)).toBe(true);
    // The wall clock may be set after a process started; the kernel's start ticks do not move.
    expect(isStillRunning({ ...self, startedAt: self.startedAt - 3_600_000 }, self)).toBe(true);
    expect(isStillRunning(self, self)).toBe(true);
  });

  it('another live process is recognised as running from the pid and start time it recorded', async () => {
    const module = JSON.stringify(join(import.meta.dirname, '..', '..', 'dist', 'session', 'process-identity.js'));
    const child = execa('node', [
      '--input-type=module',
      '-e',
      `import { currentProcess } from ${module}; console.log(JSON.stringify(currentProcess())); setInterval(() => {}, 1000);`,
    ]);
    try {
      const line = await new Promise<string>((resolve) => child.stdout?.once('data', (chunk: Buffer) => resolve(chunk.toString('utf8'))));
      const identity = JSON.parse(line) as ReturnType<typeof currentProcess>;
      expect(identity.pid).toBe(child.pid);
      expect(isStillRunning(identity)).toBe(true);
    } finally {
      child.kill('SIGKILL');
      await child.catch(() => undefined);
    }
  });

  it("an empty or unreadable lock file is a crash's, never a writer starting up: it is taken over at once, with a notice", async () => {
    const { session, lockFile } = await newSession();
    for (const text of ['', '{"pid": 12']) {
      writeFileSync(lockFile, text);
      const lease = await session.acquireWriter();
      expect(lease.notices).toEqual([`session ${session.id} had an unreadable lock file (left by a crash); it was taken over`]);
      expect(JSON.parse(readFileSync(lockFile, 'utf8'))).toMatchObject({ pid: process.pid });
      await lease.release();
    }
  });

  it("two writers racing for a dead holder's lock: one takes it over and says so, the other is told only that it is in use", async () => {
    const { agentDir, session, lockFile } = await newSession();
    const pid = await deadPid();
    writeLock(lockFile, { pid, startedAt: Date.now() - 60_000 });
    // Two processes on one folder, each with its own store: one opens, the other opens and takes the session first.
    const first = await folderStore({ dir: agentDir, name: 'demo' }).open({ sessionId: session.id });
    const second = await folderStore({ dir: agentDir, name: 'demo' }).open({ sessionId: session.id });
    const told = (handle: SessionHandle) => handle.entries().warnings;
    const firstTold = told(first);
    const secondTold = told(second);
    const lease = await second.acquireWriter();
    const refused = await first.acquireWriter().catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(SessionBusyError);
    expect([...firstTold, (refused as Error).message].filter((line) => /taken over/.test(line))).toEqual([]);
    expect([...secondTold, ...lease.notices]).toEqual([`session ${session.id} was locked by auggy pid ${pid}, which is no longer running; it was taken over`]);
    await lease.release();
  });

  it('release never removes a lock someone else took meanwhile', async () => {
    const { session, lockFile } = await newSession();
    const lease = await session.acquireWriter();
    writeLock(lockFile, { pid: process.pid, startedAt: currentProcess().startedAt, token: 'someone-else' });
    await lease.release();
    expect(existsSync(lockFile)).toBe(true);
  });

  {
    const lockFor = (agentDir: string) => new FileWriterLock(sessionsRoot(agentDir));

    it(`release removes its own lock even after another process moved it aside and linked it back`, async () => {
      const { agentDir, session, lockFile } = await newSession();
      const locks = lockFor(agentDir);
      const lease = await locks.acquireWriter(session.id);
      // What a second taker does when it finds it moved a live lock (lock-file.ts moveAside): the inode stays, its change time does not.
      renameSync(lockFile, `${lockFile}.stale-test`);
      linkSync(`${lockFile}.stale-test`, lockFile);
      rmSync(`${lockFile}.stale-test`);
      await lease.release();
      expect(existsSync(lockFile)).toBe(false);
      const next = await locks.acquireWriter(session.id);
      await next.release();
    });

    it(`release leaves a lock someone created after removing ours, and a second writer is refused meanwhile`, async () => {
      const { agentDir, session, lockFile } = await newSession();
      const locks = lockFor(agentDir);
      const lease = await locks.acquireWriter(session.id);
      await expect(locks.acquireWriter(session.id)).rejects.toThrow(SessionBusyError);
      rmSync(lockFile);
      writeLock(lockFile, { pid: process.pid, startedAt: currentProcess().startedAt, token: 'someone-else' });
      await lease.release();
      expect(JSON.parse(readFileSync(lockFile, 'utf8')).token).toBe('someone-else');
    });
  }
  it('a lock left by a process that exits without releasing is removed by its exit hook', async () => {
    const { agentDir, session, lockFile } = await newSession();
    const script = `
        import { FileWriterLock } from ${JSON.stringify(join(import.meta.dirname, '..', '..', 'dist', 'session', 'lock-file.js'))};
        await new FileWriterLock(${JSON.stringify(sessionsRoot(agentDir))}).acquireWriter(${JSON.stringify(session.id)});
        process.exit(7);
      `;
    const result = await execa('node', ['--input-type=module', '-e', script], { reject: false });
    expect(result.exitCode).toBe(7);
    expect(existsSync(lockFile)).toBe(false);
  });
});
