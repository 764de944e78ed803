/**
 * The sweep's scheduler (src/class/sweep-schedule.ts): which run a worker
 * takes next. The expected orders below are worked out by hand from the
 * rule the module states (idle server first, then a run with its own
 * process, then a server no worker holds, then anything).
 */
import { describe, expect, it } from 'vitest';
import { newWorkerState, Schedule, type Schedulable } from '../src/class/sweep-schedule.js';

const run = (id: number, sharedServer?: string): Schedulable => ({ id, sharedServer });
// Server A: runs 1-3; server B: runs 4-5; runs 6-7 start a process of their own.
const TASKS = [run(1, 'A'), run(2, 'A'), run(3, 'A'), run(4, 'B'), run(5, 'B'), run(6), run(7)];

describe('the sweep scheduler', () => {
  it('keeps a server on the worker that started it, and lets the other worker take what is left at the end', () => {
    const schedule = new Schedule(TASKS);
    const w1 = newWorkerState();
    const w2 = newWorkerState();
    const taken: string[] = [];
    const take = (name: string, worker: typeof w1) => {
      const task = schedule.take(worker);
      taken.push(`${name}:${task?.id ?? '-'}`);
      return task;
    };
    // One run in flight each; the workers finish in turn.
    let t1 = take('w1', w1);
    let t2 = take('w2', w2);
    while (t1 || t2) {
      if (t1) {
        schedule.done(w1, t1.id);
        t1 = take('w1', w1);
      }
      if (t2) {
        schedule.done(w2, t2.id);
        t2 = take('w2', w2);
      }
    }
    // Own-process runs first (6, 7); then w1 starts A and w2 starts B; each keeps its server;
    // once B has no run left, w2 takes A's last run rather than wait.
    expect(taken).toEqual(['w1:6', 'w2:7', 'w1:1', 'w2:4', 'w1:2', 'w2:5', 'w1:3', 'w2:-', 'w1:-']);
    expect(schedule.left).toBe(0);
  });

  it("takes another worker's server only when nothing else is left", () => {
    const schedule = new Schedule([run(1, 'A'), run(2, 'A'), run(3, 'B')]);
    const w1 = newWorkerState();
    const w2 = newWorkerState();
    expect(schedule.take(w1)?.id).toBe(1);
    // A belongs to w1: w2 starts B first.
    expect(schedule.take(w2)?.id).toBe(3);
    schedule.done(w2, 3);
    expect(schedule.take(w2)?.id).toBe(2);
  });

  it('does not give a worker a second run of a server it is still using: that would start a second process', () => {
    const schedule = new Schedule([run(1, 'A'), run(2, 'A'), run(3, 'B'), run(4, 'B')]);
    const w = newWorkerState();
    expect(schedule.take(w)?.id).toBe(1);
    // A is busy with run 1: the second slot starts B.
    expect(schedule.take(w)?.id).toBe(3);
    schedule.done(w, 1);
    // A is idle again and B still busy: A's next run.
    expect(schedule.take(w)?.id).toBe(2);
    schedule.done(w, 3);
    expect(schedule.take(w)?.id).toBe(4);
    expect(schedule.take(w)).toBeUndefined();
  });

  it("takes an idle server's run before it starts another server", () => {
    const schedule = new Schedule([run(1, 'A'), run(2, 'B'), run(3, 'A'), run(4, 'B')]);
    const w = newWorkerState();
    expect(schedule.take(w)?.id).toBe(1);
    schedule.done(w, 1);
    // A is idle but has run 3 left: it is taken before B is started.
    expect(schedule.take(w)?.id).toBe(3);
    schedule.done(w, 3);
    expect(schedule.take(w)?.id).toBe(2);
    schedule.done(w, 2);
    expect(schedule.take(w)?.id).toBe(4);
  });

  it('prefers the server used last among the idle ones', () => {
    const schedule = new Schedule([run(1, 'A'), run(2, 'B'), run(3, 'A'), run(4, 'B')]);
    const w = newWorkerState();
    expect(schedule.take(w)?.id).toBe(1);
    // A is busy: the second slot starts B, used last.
    expect(schedule.take(w)?.id).toBe(2);
    schedule.done(w, 1);
    schedule.done(w, 2);
    // Both idle, each with a run left: B's first, then A's.
    expect(schedule.take(w)?.id).toBe(4);
    expect(schedule.take(w)?.id).toBe(3);
  });

  it('hands out every run exactly once, whatever the order runs end in', () => {
    const tasks = Array.from({ length: 60 }, (_, i) => run(i, i % 4 === 0 ? undefined : `S${i % 7}`));
    const schedule = new Schedule(tasks);
    const workers = [newWorkerState(), newWorkerState(), newWorkerState()];
    const inFlight: { worker: (typeof workers)[number]; id: number }[] = [];
    const seen: number[] = [];
    for (const worker of workers)
      for (let k = 0; k < 2; k++) {
        const task = schedule.take(worker);
        if (task) inFlight.push({ worker, id: task.id }), seen.push(task.id);
      }
    // End runs in a scrambled but fixed order.
    for (let step = 0; inFlight.length > 0; step++) {
      const [ended] = inFlight.splice((step * 5) % inFlight.length, 1);
      schedule.done(ended!.worker, ended!.id);
      const task = schedule.take(ended!.worker);
      if (task) inFlight.push({ worker: ended!.worker, id: task.id }), seen.push(task.id);
    }
    expect(seen.sort((a, b) => a - b)).toEqual(tasks.map((t) => t.id));
  });
});
