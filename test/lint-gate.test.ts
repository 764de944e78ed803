/**
 * What makes the lint command exit 1 (src/lint/gate.ts), on hand-built
 * reports: findings against --fail-on, host verdicts against --fail-on-host
 * on the hosts --for-hosts names, the whole list sent in one request
 * included, and a server that could not be read always 2.
 */
import { describe, expect, it } from 'vitest';
import { exitCodeFor, hostsReaching, type Gate } from '../src/lint/gate.js';
import { LINT_FORMAT, LINT_FORMAT_VERSION, type HostVerdict, type LintReport, type Verdict } from '../src/lint/types.js';

const v = (verdict: Verdict): HostVerdict => ({ verdict, detail: verdict });

function report(tools: Record<string, Verdict>[], whole: Record<string, Verdict>, findings: LintReport['tools'][number]['findings'] = []): LintReport {
  return {
    format: LINT_FORMAT,
    version: LINT_FORMAT_VERSION,
    server: {
      label: 'hand-made',
      target: { from: 'hand-made.json' },
      name: null,
      version: null,
      protocolVersion: null,
      pages: 1,
      listedInMs: null,
      findings: [],
      hosts: Object.fromEntries(Object.entries(whole).map(([h, x]) => [h, v(x)])),
    },
    tools: tools.map((hosts, i) => ({ name: `t${i}`, findings: i === 0 ? findings : [], hosts: Object.fromEntries(Object.entries(hosts).map(([h, x]) => [h, v(x)])) })),
  };
}

const gate = (over: Partial<Gate>): Gate => ({ failOn: 'error', failOnHost: 'none', forHosts: ['a', 'b'], ...over });

describe('the exit code', () => {
  it('follows findings alone unless --fail-on-host is given', () => {
    const refusedEverywhere = report([{ a: 'refused', b: 'dropped' }], { a: 'refused', b: 'dropped' });
    expect(exitCodeFor([refusedEverywhere], gate({}))).toBe(0);
    const warned = report([{ a: 'accepted', b: 'accepted' }], { a: 'accepted', b: 'accepted' }, [{ rule: 'const', severity: 'warning', path: '/inputSchema', message: 'const' }]);
    expect(exitCodeFor([warned], gate({}))).toBe(0);
    expect(exitCodeFor([warned], gate({ failOn: 'warning' }))).toBe(1);
  });

  it('ranks verdicts: lossy reaches lossy; refused, dropped and unknown reach refused', () => {
    const cases: [Verdict, 'lossy' | 'refused', number][] = [
      ['accepted', 'lossy', 0],
      ['lossy', 'lossy', 1],
      ['lossy', 'refused', 0],
      ['refused', 'refused', 1],
      ['dropped', 'refused', 1],
      // The kit's own profile code failed on the schema: never a quiet pass.
      ['unknown', 'refused', 1],
    ];
    for (const [verdict, at, code] of cases) {
      expect(exitCodeFor([report([{ a: verdict, b: 'accepted' }], { a: 'accepted', b: 'accepted' })], gate({ failOnHost: at })), `${verdict} at ${at}`).toBe(code);
    }
  });

  it('judges only the hosts --for-hosts names', () => {
    const r = report([{ a: 'accepted', b: 'refused' }], { a: 'accepted', b: 'refused' });
    expect(exitCodeFor([r], gate({ failOnHost: 'refused', forHosts: ['a'] }))).toBe(0);
    expect(exitCodeFor([r], gate({ failOnHost: 'refused', forHosts: ['b'] }))).toBe(1);
  });

  it('counts the whole list in one request, even when every tool alone is fine', () => {
    const r = report([{ a: 'accepted', b: 'accepted' }], { a: 'refused', b: 'accepted' });
    expect(hostsReaching([r], gate({ failOnHost: 'refused' }))).toEqual([{ host: 'a', tools: 0, wholeList: true }]);
    expect(exitCodeFor([r], gate({ failOnHost: 'refused' }))).toBe(1);
  });

  it('is 2 when a server could not be read, whatever the gates say', () => {
    const r = report([], {});
    r.server.error = { kind: 'timeout', message: 'no answer' };
    expect(exitCodeFor([r], gate({ failOn: 'none' }))).toBe(2);
  });
});
