import { cpSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/agent-fixture.js';
import { tempDir } from '../helpers/temp-dir.js';

const CLEAN_ENV = { OPENAI_API_KEY: '', ANTHROPIC_API_KEY: '', AUGGY_MODEL: '', AUGGY_BASE_URL: '', AUGGY_API_KEY: '', NO_COLOR: '1' };

describe('installing auggy from a packed tarball (README: Installing for a team or CI)', () => {
  it('npm pack, then npm install -g of the tarball into a prefix gives an auggy that runs the demo', async () => {
    const work = tempDir('auggy-pack-');
    // dist/ is built before the suite runs (npm test builds); `prepare` would build it again.
    const pack = await execa('npm', ['pack', '--ignore-scripts', '--pack-destination', work], { cwd: REPO_ROOT, reject: false });
    expect(pack.exitCode, pack.stderr).toBe(0);
    const [tarball] = readdirSync(work).filter((name) => name.endsWith('.tgz'));
    expect(tarball).toMatch(/^auggy-\d+\.\d+\.\d+\.tgz$/);
    // Offline, from npm's cache (which `npm ci` filled): the test never needs the network.
    const prefix = join(work, 'prefix');
    const install = await execa('npm', ['install', '-g', '--prefix', prefix, '--offline', '--no-audit', '--no-fund', join(work, tarball)], { reject: false });
    expect(install.exitCode, install.stderr).toBe(0);
    const bin = join(prefix, 'bin', 'auggy');
    const version = await execa(bin, ['--version'], { reject: false, env: CLEAN_ENV });
    expect(version.stdout).toMatch(/^\d+\.\d+\.\d+$/);
    // The demo as the package ships it, copied out so the installed package is never written.
    const demo = join(tempDir('auggy-demo-'), 'demo');
    cpSync(join(prefix, 'lib', 'node_modules', 'auggy', 'examples', 'demo'), demo, { recursive: true });
    const run = await execa(bin, ['run', demo, '--print', 'hello'], { reject: false, env: CLEAN_ENV });
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^Hello! I'm the demo agent\./);
  }, 300_000);
});
