/**
 * Server processes lent from run to run (src/lab/server-pool.ts): a run on a
 * server that answered an earlier run measures what it measures on a fresh
 * one, a server that misbehaved is never lent again, requests that change
 * the server never share one, and closing the pool leaves no process behind.
 * Every server here is a real process over stdio.
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ServerConnection } from '../src/lab/connection.js';
import { DEFAULT_KNOBS } from '../src/lab/knobs.js';
import { getProfile } from '../src/lab/profiles/index.js';
import { run, type RunResult, type RunSettings } from '../src/lab/runner.js';
import { ServerPool } from '../src/lab/server-pool.js';
import { serverCommand } from '../src/lab/variants.js';
import { comparable, withoutTimings } from './helpers/lab.js';
import { SERVER_JS } from './helpers/server.js';

const fixture = fileURLToPath(new URL('./fixtures/misbehaving-server.mjs', import.meta.url));
// This file's servers are told apart from other files' (which may run at the same time) by an argument the fixture ignores.
const OWNER = 'server-pool-test';
const mine = `${fixture} [a-z-]+ ${OWNER}`;
const settings: RunSettings = { client: getProfile('faithful')!, server: 'mcpserver-1.32', seed: 1, calls: 20, knobs: DEFAULT_KNOBS };
const running = (pattern: string) => {
  try {
    return execFileSync('pgrep', ['-f', '--', pattern], { encoding: 'utf8' }).trim();
  } catch {
    return ''; // pgrep exits 1 when nothing matches
  }
};
const ARGS = { verb: 'eat', tense: 'present perfect', person: '3rd singular' };

describe('a lent server', () => {
  it('measures what a fresh one does, stderr sample included', async () => {
    const pool = new ServerPool();
    try {
      await run('baseline', SERVER_JS, { ...settings, seed: 1, pool });
      const lent = await run('baseline', SERVER_JS, { ...settings, seed: 2, pool });
      expect(pool).toMatchObject({ started: 1, reused: 1 });
      const fresh = await run('baseline', SERVER_JS, { ...settings, seed: 2 });
      // Every figure, the stderr sample and each call's record, timings aside.
      const untimed = (r: RunResult) => withoutTimings(comparable(r as unknown as Record<string, unknown>));
      expect(untimed(lent)).toEqual(untimed(fresh));
      expect(lent.stderrSample.length).toBeGreaterThan(0);
    } finally {
      await pool.close();
    }
  });

  it("starts its next run's stderr from nothing: only that run's traces are in it", async () => {
    const connection = new ServerConnection(serverCommand(SERVER_JS, ['--build', 'mcpserver-1.32']), 10_000);
    try {
      await connection.listTools();
      for (let i = 0; i < 3; i++) await connection.call('conjugate', ARGS);
      expect(((await connection.settledStderr()).match(/ tools\/call /g) ?? []).length).toBe(3);
      connection.beginRun();
      expect(connection.calls).toBe(0);
      await connection.call('conjugate', ARGS);
      expect(((await connection.settledStderr()).match(/ tools\/call /g) ?? []).length).toBe(1);
      expect(connection.reusable).toBe(true);
    } finally {
      await connection.close();
    }
  });
});

describe('what is never shared', () => {
  it.each(['crash', 'hang'])('a server that misbehaved (%s) is not lent again, and the pool leaves no process behind', async (mode) => {
    const pool = new ServerPool();
    const quick = { ...settings, calls: 2, knobs: { ...DEFAULT_KNOBS, callTimeoutMs: 300 }, pool };
    try {
      await run(mode, [fixture, mode, OWNER], quick);
      await run(mode, [fixture, mode, OWNER], quick);
      expect(pool).toMatchObject({ started: 2, reused: 0 });
    } finally {
      await pool.close();
    }
    expect(running(mine)).toBe('');
  });

  it('nor is one that came back after a timeout, though it answers again', async () => {
    const pool = new ServerPool();
    try {
      const command = { command: process.execPath, args: [fixture, 'late-once', OWNER] };
      const connection = pool.take(command, 300);
      await connection.listTools();
      expect((await connection.call('conjugate', ARGS)).label).toBe('timeout');
      await new Promise((resolve) => setTimeout(resolve, 1000));
      expect((await connection.call('conjugate', ARGS)).label).toBe('ok');
      await pool.give(connection);
      expect(pool.take(command, 300)).not.toBe(connection);
      expect(pool).toMatchObject({ started: 2, reused: 0 });
    } finally {
      await pool.close();
    }
    expect(running(mine)).toBe('');
  });

  it('requests that change the server (profile edits, lessons) get a process of their own', async () => {
    const pool = new ServerPool();
    try {
      for (const workload of ['profile', 'lessons'] as const) {
        await run('baseline', SERVER_JS, { ...settings, calls: 5, workload, pool });
        await run('baseline', SERVER_JS, { ...settings, calls: 5, workload, pool });
      }
      expect(pool).toMatchObject({ started: 0, reused: 0 });
    } finally {
      await pool.close();
    }
  });

  it('closing the pool stops its idle servers', async () => {
    const pool = new ServerPool();
    const connection = pool.take(serverCommand(SERVER_JS, ['--build', 'low-level']), 10_000);
    await connection.listTools();
    const pid = connection.pid!;
    await pool.give(connection);
    const alive = () => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    expect(alive()).toBe(true);
    await pool.close();
    expect(alive()).toBe(false);
  });
});
