/**
 * How busy the machine is. Other engineers run tests on the same two cores; a figure measured
 * while they do is slower than the code is. The bench waits (briefly) for a quiet moment and
 * records how busy the machine was before each group, so the document says how much to trust it.
 */
import fs from 'node:fs';
import { sleep } from './stats';

function cpuTicks(): { idle: number; total: number } | undefined {
  try {
    const line = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0]!;
    const values = line.trim().split(/\s+/u).slice(1).map(Number);
    const idle = (values[3] ?? 0) + (values[4] ?? 0); // idle + iowait
    return { idle, total: values.reduce((a, b) => a + b, 0) };
  } catch {
    return undefined;
  }
}

/** Share of all cores busy over the next `sampleMs` (0..100), or undefined off Linux. */
export async function cpuBusyPercent(sampleMs = 1_000): Promise<number | undefined> {
  const before = cpuTicks();
  await sleep(sampleMs);
  const after = cpuTicks();
  if (!before || !after || after.total === before.total) return undefined;
  return 100 * (1 - (after.idle - before.idle) / (after.total - before.total));
}

/**
 * Waits until the cores are at most `maxBusy` % busy for three consecutive seconds, or `maxWaitMs`
 * has passed. Resolves with the last reading.
 */
export async function waitForQuiet(maxBusy: number, maxWaitMs: number, onWait: (busy: number) => void): Promise<number | undefined> {
  const deadline = performance.now() + maxWaitMs;
  let quietSeconds = 0;
  let busy: number | undefined;
  let announced = false;
  while (quietSeconds < 3) {
    busy = await cpuBusyPercent(1_000);
    if (busy === undefined) return undefined;
    quietSeconds = busy <= maxBusy ? quietSeconds + 1 : 0;
    if (quietSeconds === 0 && !announced) {
      onWait(busy);
      announced = true;
    }
    if (performance.now() > deadline) break;
  }
  return busy;
}

function ownTicks(): number | undefined {
  try {
    const stat = fs.readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime, stime, and cutime, cstime: the bench's children once they have exited (and all are
    // stopped before a group ends).
    return [11, 12, 13, 14].reduce((sum, i) => sum + Number(fields[i]), 0);
  } catch {
    return undefined;
  }
}

export interface CpuShare {
  /** Share of all cores used by processes other than the bench and its children (0..100). */
  others: number;
  /** Share used by the bench and its children. */
  ours: number;
}

/** Starts watching CPU use; `stop()` says how much of it was other work (Linux; undefined elsewhere). */
export function watchCpu(): { stop(): CpuShare | undefined } {
  const machineBefore = cpuTicks();
  const ownBefore = ownTicks();
  return {
    stop() {
      const machineAfter = cpuTicks();
      const ownAfter = ownTicks();
      if (!machineBefore || !machineAfter || ownBefore === undefined || ownAfter === undefined) return undefined;
      const total = machineAfter.total - machineBefore.total;
      if (total <= 0) return undefined;
      const busy = total - (machineAfter.idle - machineBefore.idle);
      const ours = Math.min(busy, ownAfter - ownBefore);
      return { others: (100 * (busy - ours)) / total, ours: (100 * ours) / total };
    },
  };
}
