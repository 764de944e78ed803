/**
 * minimcp: the kit's stdio MCP server.
 *
 *   node dist/server.cjs [--build low-level|mcpserver-1.20|mcpserver-1.32] [--read-only]
 *   npx tsx src/minimcp/server.ts --build low-level
 *
 * stdout carries protocol messages and nothing else; traces go to stderr.
 */
import process from 'node:process';
import v8 from 'node:v8';
import { BUILD_TITLES, DEFAULT_BUILD, isServerBuild, SERVER_BUILDS, type ServerBuild } from './errors.js';
import { createMiniServer } from './protocol.js';
import { readOnlyFromEnvironment } from './readonly.js';
import { LineTransport } from './stdio.js';
import { TOOLS } from './tools/index.js';

const USAGE = `Usage: minimcp [--build ${SERVER_BUILDS.join('|')}] [--read-only]

A stdio MCP server for a grammar tutor: conjugate, get_profile, update_profile, lessons.
  --build ID    which real server build decides how errors reach the client
                (default ${DEFAULT_BUILD}; see src/minimcp/errors.ts):
${SERVER_BUILDS.map((b) => `                  ${b.padEnd(15)} ${BUILD_TITLES[b]}`).join('\n')}
  --read-only   serve reads only (also MINIMCP_READ_ONLY=1; see src/minimcp/readonly.ts)
  --help        this text`;

export interface ServerFlags {
  build: ServerBuild;
  readOnly: boolean;
}

/** Parses the command line; throws an Error whose message is meant for a person. */
export function parseServerArgs(argv: string[]): ServerFlags | 'help' {
  let build: ServerBuild = DEFAULT_BUILD;
  let readOnly = readOnlyFromEnvironment();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--help' || arg === '-h') return 'help';
    if (arg === '--read-only') {
      readOnly = true;
      continue;
    }
    const [flag, inline] = arg.split('=', 2) as [string, string | undefined];
    if (flag === '--build') {
      const value = inline ?? argv[++i];
      if (!value || !isServerBuild(value)) throw new Error(`--build takes one of ${SERVER_BUILDS.join(', ')} (got ${value ?? 'nothing'})`);
      build = value;
    } else if (flag === '--spec') {
      // The MCP revision never decided these errors: the server build does.
      throw new Error('--spec is gone: how errors reach the client depends on the server build, --build ' + SERVER_BUILDS.join('|'));
    } else {
      throw new Error(`unknown option ${arg}`);
    }
  }
  return { build, readOnly };
}

async function main(argv: string[]): Promise<void> {
  let flags: ServerFlags | 'help';
  try {
    flags = parseServerArgs(argv);
  } catch (error) {
    process.stderr.write(`minimcp: ${(error as Error).message}\n\n${USAGE}\n`);
    process.exit(2);
  }
  if (flags === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const log = (line: string) => process.stderr.write(`[minimcp] ${line}\n`);
  const server = createMiniServer({ tools: TOOLS, build: flags.build, readOnly: flags.readOnly, log });
  const transport = new LineTransport();
  transport.onclose = () => process.exit(0);
  await server.connect(transport);
  log(`serving ${TOOLS.map((t) => t.name).join(', ')} over stdio (build ${flags.build}${flags.readOnly ? ', read-only' : ''})`);
}

// The kit's runner starts this server hundreds of times, from a V8 startup snapshot built once per variant
// (buildServer in src/lab/variants.ts): the modules above are loaded already, and main() runs with the arguments
// that follow node's own (there is no script path in process.argv then).
if (v8.startupSnapshot.isBuildingSnapshot()) v8.startupSnapshot.setDeserializeMainFunction(() => void main(process.argv.slice(1)));
else void main(process.argv.slice(2));
