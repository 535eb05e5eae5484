import { execa } from 'execa';
import { describe, expect, it } from 'vitest';

describe('the Node the suite runs on', () => {
  it('is the `node` on PATH, so every auggy and helper a test spawns runs on it too', async () => {
    // .ci/run runs the suite a second time with Node 24 first on PATH; many tests spawn `node`.
    const spawned = await execa('node', ['-p', 'process.version']);
    expect(spawned.stdout, `put ${process.execPath}'s folder first on PATH`).toBe(process.version);
  });
});
