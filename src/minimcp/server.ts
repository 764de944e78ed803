/**
 * minimcp: the kit's stdio MCP server.
 *
 *   node dist/server.js [--spec 2025-06-18|2025-11-25]
 *   npx tsx src/minimcp/server.ts --spec 2025-06-18
 *
 * stdout carries protocol messages and nothing else; traces go to stderr.
 */
import process from 'node:process';
import { DEFAULT_SPEC, SPEC_ERAS, type SpecEra } from './errors.js';
import { createMiniServer } from './protocol.js';
import { readOnlyFromEnvironment } from './readonly.js';
import { LineTransport } from './stdio.js';
import { TOOLS } from './tools/index.js';

const USAGE = `Usage: minimcp [--spec ${SPEC_ERAS.join('|')}] [--read-only]

A stdio MCP server for a grammar tutor: conjugate, get_profile, update_profile, lessons.
  --spec ERA    which MCP revision decides how errors reach the client
                (default ${DEFAULT_SPEC}; see src/minimcp/errors.ts)
  --read-only   serve reads only (also MINIMCP_READ_ONLY=1; see src/minimcp/readonly.ts)
  --help        this text`;

export interface ServerFlags {
  spec: SpecEra;
  readOnly: boolean;
}

/** Parses the command line; throws an Error whose message is meant for a person. */
export function parseServerArgs(argv: string[]): ServerFlags | 'help' {
  let spec: SpecEra = DEFAULT_SPEC;
  let readOnly = readOnlyFromEnvironment();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--help' || arg === '-h') return 'help';
    if (arg === '--read-only') {
      readOnly = true;
      continue;
    }
    const [flag, inline] = arg.split('=', 2) as [string, string | undefined];
    if (flag === '--spec') {
      const value = inline ?? argv[++i];
      if (!value || !(SPEC_ERAS as readonly string[]).includes(value)) {
        throw new Error(`--spec takes one of ${SPEC_ERAS.join(', ')} (got ${value ?? 'nothing'})`);
      }
      spec = value as SpecEra;
    } else {
      throw new Error(`unknown option ${arg}`);
    }
  }
  return { spec, readOnly };
}

async function main(): Promise<void> {
  let flags: ServerFlags | 'help';
  try {
    flags = parseServerArgs(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`minimcp: ${(error as Error).message}\n\n${USAGE}\n`);
    process.exit(2);
  }
  if (flags === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const log = (line: string) => process.stderr.write(`[minimcp] ${line}\n`);
  const server = createMiniServer({ tools: TOOLS, spec: flags.spec, readOnly: flags.readOnly, log });
  const transport = new LineTransport();
  transport.onclose = () => process.exit(0);
  await server.connect(transport);
  log(`serving ${TOOLS.map((t) => t.name).join(', ')} over stdio (spec ${flags.spec}${flags.readOnly ? ', read-only' : ''})`);
}

void main();
