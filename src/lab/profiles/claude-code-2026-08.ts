/** claude-code-2026-08: Claude Code 2.1.235 over the Anthropic Messages API. */
import { claudeCodeDropsServer } from './claude-code-shared.js';
import { copy, passThrough, schemaOf, seenTool, type ClientProfile } from './shared.js';

/** The combinators Claude Code 2.1.235 looks for at the top of an inputSchema, in its own order. */
const TOP_LEVEL = ['anyOf', 'oneOf', 'allOf'] as const;

/**
 * Read in `@anthropic-ai/claude-code-linux-x64` 2.1.235 (npm, the compiled
 * `claude` binary, whose JavaScript is readable with grep), 2026-08-18:
 *
 * 1. The server is dropped when one tool does not fit the MCP SDK's Tool shape
 *    (claude-code-shared.ts; anthropics/claude-code#88049, #44364).
 * 2. Then each tool with a top-level `anyOf`, `oneOf` or `allOf` key is passed
 *    to a normaliser that could flatten it (the branches' properties merged
 *    into one object, an "Input constraint: ..." line put before the
 *    description), but only for a server whose URL host is listed in the remote
 *    setting `tengu_mcp_normalize_root_combinators` (default: empty; a stdio
 *    server has no URL). Otherwise that one tool is skipped, with the log line
 *    `Skipping tool "X": its input schema uses top-level anyOf, which the
 *    Anthropic API does not accept. Other tools from this server remain
 *    available.` (for a combinator that is not a list: `... input schema has
 *    top-level anyOf that is not an array`), and the other tools go on. So the
 *    API's 400 for a top-level union (claude-code-2025-07) is not reached.
 *    anthropics/claude-code#95504 (2026-09-19) reports the same skip.
 * 3. A schema the draft 2020-12 meta-schema rejects, or a property key outside
 *    `^[a-zA-Z0-9_.-]{1,64}$`, is skipped only under another remote setting
 *    (`tengu_mcp_drop_invalid_tool_schemas`, default empty); by default the tool
 *    is kept with a log line. Not modelled: it changes nothing by default.
 */
export const claudeCode202608: ClientProfile = {
  id: 'claude-code-2026-08',
  title: 'Claude Code 2.1.235 on the Anthropic API: a tool with a top-level oneOf/allOf/anyOf is skipped alone; a root that is not an object drops the server',
  asOf: 'Claude Code 2.1.235, 2026-08-18, Anthropic Messages API',
  released: '2026-08-18',
  evidence: { kind: 'code', date: '2026-08-18', source: '@anthropic-ai/claude-code-linux-x64 2.1.235 read' },
  sources: [
    '@anthropic-ai/claude-code-linux-x64 2.1.235 (npm): tools/list parsed with the MCP SDK Tool shape, "Failed to fetch tools" and no tool on a parse error; a top-level anyOf/oneOf/allOf skipped per tool ("Skipping tool ... Other tools from this server remain available.") unless the remote setting tengu_mcp_normalize_root_combinators lists the server',
    'anthropics/claude-code#88049 (2026-08-19, one root anyOf with no "type": "object" drops every tool of the server), anthropics/claude-code#44364 (2026-04-06, "required": null)',
    'anthropics/claude-code#95504 (2026-09-19): a tool with a root-level allOf/oneOf/anyOf dropped alone, the server\'s other tools working',
  ],
  notes:
    'The skip and the drop show nothing in the session; their log lines are quoted from the 2.1.235 code in the kit\'s ' +
    'rejection texts, the ZodError itself is not reproduced. The flattening of a top-level union is behind a remote ' +
    'setting the kit cannot see (its default, empty, is modelled). Anthropic\'s own connectors (claude.ai proxy) and ' +
    'the 16 KiB schema limit of anthropics/claude-code#77296 are not modelled.',
  present(tools) {
    const dropped = claudeCodeDropsServer(tools);
    if (dropped) return dropped;
    const skipped: { name: string; reason: string }[] = [];
    const kept = tools.filter((tool) => {
      const schema = schemaOf(tool);
      const found = TOP_LEVEL.filter((k) => k in schema);
      if (found.length === 0) return true;
      const notList = found.find((k) => !Array.isArray(schema[k]));
      const why = notList
        ? `input schema has top-level ${notList} that is not an array`
        : `its input schema uses top-level ${found.join('/')}, which the Anthropic API does not accept`;
      skipped.push({ name: tool.name, reason: `Skipping tool "${tool.name}": ${why}. Other tools from this server remain available.` });
      return false;
    });
    return { tools: kept.map((tool) => seenTool(tool, copy(schemaOf(tool)))), ...(skipped.length > 0 ? { skipped } : {}) };
  },
  validate: (_tool, args) => passThrough(args),
};
