import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';

/** What a lock records about the process holding it, so a later one can tell whether it still runs. */
export interface ProcessIdentity {
  pid: number;
  /** Milliseconds since the epoch when the process started: a pid reused later has another. */
  startedAt: number;
  host: string;
}

/** Linux reports process start times in clock ticks; USER_HZ is 100 on every architecture it runs on. */
const CLOCK_TICKS_PER_SECOND = 100;
/** /proc's boot time has a resolution of one second, and clocks drift: start times this close are the same process. */
const SAME_START_TOLERANCE_MS = 5000;

export function currentProcess(): ProcessIdentity {
  return { pid: process.pid, startedAt: Math.round(Date.now() - process.uptime() * 1000), host: hostname() };
}

/** When a process started, from /proc; undefined where there is no /proc (macOS, Windows) or no such process. */
function procStartTime(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) is in parentheses and may hold spaces; fields after it are plain.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const startTicks = Number(fields[19]);
    const bootLine = /^btime (\d+)$/m.exec(readFileSync('/proc/stat', 'utf8'));
    if (!bootLine || !Number.isFinite(startTicks)) return undefined;
    return Number(bootLine[1]) * 1000 + (startTicks / CLOCK_TICKS_PER_SECOND) * 1000;
  } catch {
    return undefined;
  }
}

export function pidExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Whether the process a lock names is still running. A lock from another machine (a shared
 * folder) cannot be checked from here, so it counts as running.
 */
export function isStillRunning(holder: ProcessIdentity, self: ProcessIdentity = currentProcess()): boolean {
  if (holder.host !== self.host) return true;
  const sameStart = (startedAt: number) => Math.abs(startedAt - holder.startedAt) <= SAME_START_TOLERANCE_MS;
  // Our own pid with another start time is an earlier process that had the same pid (a restarted container).
  if (holder.pid === self.pid) return sameStart(self.startedAt);
  if (!pidExists(holder.pid)) return false;
  const started = procStartTime(holder.pid);
  return started === undefined || sameStart(started);
}
