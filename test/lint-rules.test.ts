/**
 * The linter's rules without any process: on the 30 tools of
 * test/fixtures/lint/thirty-tools.data.mjs and on the recorded tools/list of
 * each real server (test/fixtures/lint/recorded/, saved with --save from the
 * pinned packages; test/lint-cli.test.ts checks they still match). Every
 * expected finding (severity, rule, JSON Pointer) is written by hand from the
 * rule's definition in src/lint/rules.ts; none is copied from the linter.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { findStructuralUnions } from '../src/contract/rules.js';
import { lintTools } from '../src/lint/lint.js';
import { followRef, recursion, refUses } from '../src/lint/refs.js';
import { takesArguments } from '../src/lint/rules.js';
import { renderTerminal } from '../src/lint/terminal.js';
import { configTargets, stripJsonc } from '../src/lint/targets.js';
import { LINT_FORMAT, LINT_FORMAT_VERSION, type LintReport } from '../src/lint/types.js';
import { recorded, withoutEvidence } from './helpers/lint.js';
// @ts-expect-error: a plain JS fixture, no types
import { TOOLS } from './fixtures/lint/thirty-tools.data.mjs';


/** A report's findings as "severity rule pointer" lines per tool, pointers without the /inputSchema they all start with. */
function findings(report: LintReport): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const tool of report.tools) {
    const key = out[tool.name] ? `${tool.name} (2)` : tool.name;
    out[key] = tool.findings.map((f) => `${f.severity} ${f.rule} ${f.path.replace(/^\/inputSchema/, '') || '/'}`).sort();
  }
  return out;
}

describe('the rules on the thirty tools', async () => {
  // No host targeted: every finding whose cause a host reads is info (the severity that follows the hosts is tested below).
  const report = await lintTools(TOOLS, 'tools/list', undefined, []);

  it('reads every tool, the duplicate too', () => {
    expect(report.tools).toHaveLength(30);
    expect(report.server.findings).toEqual([]);
  });

  it('gives, tool by tool, what each rule says', () => {
    expect(findings(report)).toEqual({
      // A plain object of a string, its dialect named (draft-07, which every host's validator compiles): nothing where no
      // targeted host refuses the keyword itself.
      plain_text: [],
      // anyOf [T, null] has one structured branch at most: not a structural union (the contract's detector agrees).
      nullable_note: [],
      nullable_object: [],
      two_objects: ['info no-structural-union /properties/pet/anyOf'],
      // A oneOf of two scalars: no structural union, but oneOf itself.
      scalar_one_of: ['info one-of /properties/key/oneOf'],
      type_list: ['info type-list /properties/label/type'],
      all_of: ['info all-of /properties/user/allOf'],
      array_no_items: ['info array-items /properties/tags'],
      const_kind: ['info const /properties/kind/const'],
      // A $ref that resolves, and the $defs that holds it: each is a warning of its own.
      ref_def: ['info ref /$defs', 'info ref /properties/to/$ref'],
      ref_missing: ['info ref-unresolved /properties/to/$ref'],
      ref_remote: ['info ref-unresolved /properties/order/$ref'],
      // Node refers to itself through children.items: recursion, found at the definition.
      ref_cycle: ['info ref /$defs', 'info ref /$defs/Node/properties/children/items/$ref', 'info ref /properties/tree/$ref', 'warning ref-cycle /$defs/Node'],
      // Two $ref branches to string enums: resolved, they are scalars, so no structural union.
      ref_union_scalars: ['info ref /$defs', 'info ref /properties/pick/anyOf/0/$ref', 'info ref /properties/pick/anyOf/1/$ref'],
      // Two $ref branches to objects: a structural union once resolved.
      ref_union_objects: ['info no-structural-union /properties/payment/anyOf', 'info ref /$defs', 'info ref /properties/payment/anyOf/0/$ref', 'info ref /properties/payment/anyOf/1/$ref'],
      // MCP allows the dot, OpenAI's and Anthropic's patterns do not: its severity follows the hosts (none targeted: info).
      'files.read': ['info tool-name /name'],
      // A space is outside what MCP allows: an error whatever the hosts (the spec's own rule).
      'bad name': ['error tool-name /name'],
      [`l${'o'.repeat(66)}ng_name`]: ['info tool-name /name'],
      dup_tool: ['error duplicate-name /name'],
      'dup_tool (2)': ['error duplicate-name /name'],
      // No "type": "object" and a union at the root; the union has two object branches.
      root_any_of: ['error root-object /anyOf', 'error root-object /type', 'info no-structural-union /anyOf'],
      // No parameters, while the description says "Give the city, the date and ...".
      no_params_says_args: ['error no-parameters /properties'],
      // No parameters, and a description that asks for none.
      no_params_ok: [],
      untyped_param: ['info untyped /properties/anything'],
      vendor_keyword: ['info untaught /properties/id/x-location'],
      pattern_properties: ['info untaught /properties/headers/patternProperties'],
      boolean_schema: ['info untaught /properties/flag'],
      required_not_a_list: ['error invalid-schema /required'],
      tuple_items: ['info untaught /properties/point/items'],
      deep_union: ['info no-structural-union /properties/rows/items/properties/cell/anyOf'],
    });
  });

  it('flags structural unions exactly where the contract\'s detector does, wherever no $ref is involved', () => {
    for (const tool of report.tools) {
      const schema = (TOOLS as { name: string; inputSchema: unknown }[]).find((t) => t.name === tool.name)!.inputSchema;
      if (JSON.stringify(schema).includes('$ref')) continue;
      const mine = tool.findings.filter((f) => f.rule === 'no-structural-union').map((f) => f.path);
      expect(mine, tool.name).toEqual(findStructuralUnions(schema, '/inputSchema').map((u) => u.path));
    }
  });

  it('says where each finding is and why, naming the hosts', () => {
    const union = report.tools.find((t) => t.name === 'two_objects')!.findings[0]!;
    expect(union.message).toMatch(/^anyOf with 2 structured branches \(of 2\): .*lost on [^(]*langflow/);
    expect(union.advice).toMatch(/^publish one object whose properties cover every branch/);
    const params = report.tools.find((t) => t.name === 'no_params_says_args')!.findings[0]!;
    expect(params.message).toContain('"Give the city"');
  });
});

describe('the recorded tools/list of the real servers', () => {
  it("server-everything, server-filesystem and server-memory: every tool read, nothing that hurts today's hosts but server-everything's two URIs", async () => {
    // Plain zod 4 objects through McpServer: $schema, type, properties, required, enums, defaults, bounds, arrays with items.
    // Their draft-07 $schema is info (no host of today refuses it); server-everything's two `format: "uri"` are refused by
    // ai-sdk-google-2026-11, whose answer is the Gemini legacy field's 2025-06 rules applied to 2026-11 (unconfirmed
    // evidence, src/lab/profiles/ai-sdk-google.ts): a warning, never an error on that ground alone.
    const { HOST_SETS } = await import('../src/lint/hosts.js');
    const expected: Record<string, string[]> = {
      'server-everything': ['gzip-file-as-resource warning format /inputSchema/properties/data/format', 'trigger-url-elicitation warning format /inputSchema/properties/url/format'],
      'server-filesystem': [],
      'server-memory': [],
    };
    for (const [name, count] of [['server-everything', 17], ['server-filesystem', 14], ['server-memory', 9]] as const) {
      const report = await lintTools(recorded(name), name, undefined, HOST_SETS.today);
      expect(report.tools, name).toHaveLength(count);
      const above = report.tools.flatMap((t) => t.findings.filter((f) => f.severity !== 'info').map((f) => `${t.name} ${f.severity} ${f.rule} ${f.path}`));
      expect(above.sort(), name).toEqual(expected[name]);
      expect(report.tools.flatMap((t) => t.findings.filter((f) => f.severity === 'info').map((f) => f.rule)).filter((r) => r !== 'schema-dialect' && r !== 'const' && r !== 'no-structural-union'), name).toEqual([]);
    }
  });

  it('the OpenAPI-generated server: its unions flagged, its plain nullable anyOf not', async () => {
    expect(findings(await lintTools(recorded('openapi-pet-clinic')))).toEqual({
      // Every host is targeted here (lintTools' default). The Gemini API's parameters field (gemini-parameters-2026-09)
      // refuses any name its Schema message lacks, the generator's x- keywords among them: an error wherever taking
      // them away (one, or the tool's two together) is what the field needs to take the tool.
      // listPets: query parameters, each with the generator's own x-parameter-location keyword.
      // OpenAI strict mode (openai-strict, targeted here) refuses every object without "additionalProperties": false, a
      // requirement of strict mode no rule of the linter names: a host-refusal finding with its text, on every tool
      // whose cause is not named otherwise (createPet's root is).
      'lst-pets': ['error host-refusal /', 'error untaught /properties/limit/x-parameter-location', 'error untaught /properties/species/x-parameter-location'],
      // createPet: the request body's oneOf of two $refs, inlined, becomes the root; the discriminators are consts.
      // Its root refuses it wherever it goes; x-content-type is refused too, on its own (the Gemini field refuses that
      // name wherever it stands), as on the tools below.
      'crt-pet': [
        'error no-structural-union /oneOf',
        'error root-object /oneOf',
        'error root-object /type',
        'error untaught /x-content-type',
        // No host refuses, drops or loses anything for the consts (they sit in the root's union, refused first): info.
        'info const /oneOf/0/properties/species/const',
        'info const /oneOf/1/properties/species/const',
      ],
      // renamePet: nickname is anyOf [string, null], a plain nullable: no structural union.
      // Mastra's Agent refuses it too, for a shape its zod conversion cannot take (ZodIntersection): no rule names it.
      'rename-pet': ['error host-refusal /', 'error host-refusal /', 'error untaught /properties/petId/x-parameter-location', 'error untaught /x-content-type'],
      // visitDate's "format": "date": the Gemini legacy field takes only "enum" and "date-time" (continue, goose, gemini-cli 0.1).
      'book-visit': ['error format /properties/day/format', 'error host-refusal /', 'error no-structural-union /properties/pet/anyOf', 'error untaught /x-content-type'],
      // updateOwner: the allOf of a $ref and an object came out merged into one object (the generator's doing); the oneOf stays.
      'upd-owner': ['error host-refusal /', 'error no-structural-union /properties/contact/oneOf', 'error untaught /properties/ownerId/x-parameter-location', 'error untaught /x-content-type'],
    });
  });

  it('no description of a real tool that takes nothing reads as taking arguments', () => {
    const all = ['server-everything', 'server-filesystem', 'server-memory'].flatMap(recorded) as { name: string; description: string; inputSchema: { properties?: object } }[];
    const none = all.filter((t) => Object.keys(t.inputSchema.properties ?? {}).length === 0);
    expect(none.map((t) => t.name).sort()).toEqual([
      'get-env',
      'get-roots-list',
      'get-tiny-image',
      'list_allowed_directories',
      'read_graph',
      'toggle-simulated-logging',
      'toggle-subscriber-updates',
      'trigger-elicitation-request',
    ]);
    for (const tool of none) expect(takesArguments(tool.description), tool.name).toBeNull();
  });
});

describe('a description that takes arguments', () => {
  it.each([
    ['Conjugates an English verb. Give the verb, the tense and the person; the answer is the verb phrase alone.', 'Give the verb'],
    ['Search the web.\n\nArgs:\n    query: what to look for', 'Args:'],
    ['Takes a city name and returns the weather.', 'Takes a city'],
    ['Runs the report with the period parameter.', 'with the period parameter'],
    ['Deletes a file. Provide the path.', 'Provide the path'],
  ])('%j reads as taking arguments (%s)', (description, words) => {
    expect(takesArguments(description)).toBe(words);
  });

  it.each([['Returns the server time.'], ['Takes no arguments; lists the rooms.'], ['Provides a list of every open ticket.'], ['Read the entire knowledge graph'], [undefined]])('%j does not', (description) => {
    expect(takesArguments(description)).toBeNull();
  });
});

describe('$ref resolved in the schema, nothing fetched', () => {
  const schema = {
    type: 'object',
    properties: { a: { $ref: '#/$defs/A~1B' }, b: { $ref: '#/%24defs/Plain' }, c: { $ref: '#here' }, d: { $ref: '#/$defs/Loop1' }, e: { $ref: 'other.json#/x' } },
    $defs: { 'A/B': { type: 'string' }, Plain: { type: 'number' }, Named: { $anchor: 'here', type: 'boolean' }, Loop1: { $ref: '#/$defs/Loop2' }, Loop2: { $ref: '#/$defs/Loop1' } },
  };

  it('follows pointers (escaped and percent-encoded) and anchors; another document does not resolve', () => {
    const uses = refUses(schema);
    expect(uses.map((u) => [u.at, u.target])).toEqual([
      ['/inputSchema/properties/a', '/$defs/A~1B'],
      ['/inputSchema/properties/b', '/$defs/Plain'],
      ['/inputSchema/properties/c', '/$defs/Named'],
      ['/inputSchema/properties/d', '/$defs/Loop1'],
      ['/inputSchema/properties/e', null],
      ['/inputSchema/$defs/Loop1', '/$defs/Loop2'],
      ['/inputSchema/$defs/Loop2', '/$defs/Loop1'],
    ]);
    expect(uses[4]!.why).toBe('it names another document, and hosts do not fetch one');
  });

  it('a chain of refs that never reaches a schema resolves to nothing, and is an error', async () => {
    expect(followRef(schema, { $ref: '#/$defs/Loop1' })).toBeNull();
    expect(followRef(schema, { $ref: '#/$defs/A~1B' })).toEqual({ type: 'string' });
    const report = await lintTools([{ name: 't', description: 'x', inputSchema: schema }]);
    expect(report.tools[0]!.findings.filter((f) => f.rule === 'ref-unresolved').map((f) => f.path)).toEqual([
      '/inputSchema/properties/d/$ref',
      '/inputSchema/properties/e/$ref',
      '/inputSchema/$defs/Loop1/$ref',
      '/inputSchema/$defs/Loop2/$ref',
    ]);
  });

  it('finds recursion through the root', () => {
    const tree = { type: 'object', properties: { name: { type: 'string' }, kids: { type: 'array', items: { $ref: '#' } } } };
    expect(recursion(tree)).toEqual([{ target: '', closedAt: '/inputSchema/properties/kids/items' }]);
  });
});

describe('config files', () => {
  it('reads JSONC: comments and trailing commas out, strings kept', () => {
    expect(JSON.parse(stripJsonc('{ // a comment\n "a": "http://x//y", /* b */ "b": [1, 2,], }'))).toEqual({ a: 'http://x//y', b: [1, 2] });
  });

  it('lists the stdio and Streamable HTTP servers of an mcpServers file and skips the others, saying why', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'schema-breaks-lint-config-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, 'claude_desktop_config.json');
    writeFileSync(
      file,
      JSON.stringify({
        mcpServers: {
          memory: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-memory'], env: { MEMORY_FILE_PATH: '/tmp/m.json' } },
          remote: { url: 'https://example.com/mcp' },
          old: { type: 'sse', url: 'https://example.com/sse' },
          off: { command: 'node', args: ['x.js'], disabled: true },
        },
      }),
    );
    const { targets, skipped } = configTargets(file);
    expect(targets.map((t) => (t.kind === 'spawn' ? [t.spec.label, t.spec.command, t.spec.args, t.spec.env] : t.kind === 'http' ? [t.spec.label, t.spec.url] : t))).toEqual([
      ['memory', 'npx', ['-y', '@modelcontextprotocol/server-memory'], { MEMORY_FILE_PATH: '/tmp/m.json' }],
      ['remote', 'https://example.com/mcp'],
    ]);
    expect(skipped).toEqual([
      { name: 'old', reason: 'not a stdio or Streamable HTTP server (sse): the linter does not speak the older HTTP+SSE transport' },
      { name: 'off', reason: 'disabled in the config' },
    ]);
    const vscode = join(dir, 'mcp.json');
    writeFileSync(vscode, '{\n  // VS Code\n  "servers": {\n    "fs": { "type": "stdio", "command": "node", "args": ["fs.js"] },\n    "web": { "type": "http", "url": "https://example.com/mcp" },\n  },\n}\n');
    const read = configTargets(vscode);
    expect(read.targets.map((t) => `${t.kind} ${t.kind === 'from' ? '' : t.spec.label}`)).toEqual(['spawn fs', 'http web']);
    expect(read.skipped).toEqual([]);
    expect(() => configTargets(vscode, 'nope')).toThrow('has no server "nope"; it has: fs, web');
  });
});

describe('the terminal report', () => {
  it("shows a server's control and bidirectional characters as \ufffd, never raw", async () => {
    const hostile = '\u001b[2J\u001b[31mevil\u202etxt.exe';
    const report = await lintTools([{ name: hostile, description: `Give the path.\u0007`, inputSchema: { type: 'object', properties: {} } }]);
    const text = renderTerminal([report], [], { colour: false, width: 200, gate: 'error' });
    expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u202a-\u202e]/);
    expect(text).toContain('\ufffd[2J\ufffd[31mevil\ufffdtxt.exe');
  });
});

describe('the JSON document', () => {
  it('has exactly the shape docs/linting.md gives', async () => {
    const report = await lintTools(recorded('openapi-pet-clinic'));
    const json = JSON.parse(JSON.stringify(report));
    expect(Object.keys(json)).toEqual(['format', 'version', 'server', 'tools', 'causes']);
    expect([json.format, json.version]).toEqual([LINT_FORMAT, LINT_FORMAT_VERSION]);
    expect(Object.keys(json.tools[0])).toEqual(['name', 'weight', 'findings', 'hosts']);
    expect(Object.keys(json.tools[0].weight)).toEqual(['bytes', 'tokens']);
    expect(Object.keys(json.tools[0].findings[0])).toEqual(['rule', 'severity', 'path', 'message', 'advice', 'hurts']);
    expect(Object.keys(json.causes[0])).toEqual(['rule', 'severity', 'path', 'message', 'advice', 'tools', 'hurts']);
    const book = json.tools.find((t: { name: string }) => t.name === 'book-visit');
    expect(Object.keys(book.hosts)).toEqual(['faithful', 'continue-gemini-2025-02', 'goose-google-2025-02', 'gemini-cli-2025-06', 'gemini-cli-2025-11', 'openai-strict', 'claude-code-2025-07', 'claude-code-2026-08', 'langflow', 'openai-agents-2025-10', 'mastra-google-2025-12', 'langchain-mcp-2026-01', 'ai-sdk-google-2026-11', 'openai-functions-2026-11', 'gemini-parameters-2026-09', 'gemini-json-schema-2026-11', 'vscode-copilot-2026-01']);
    expect(withoutEvidence(book.hosts['continue-gemini-2025-02'])).toEqual({
      verdict: 'refused',
      // The API of 2025-02 parses the anyOf; the server's vendor key at the root is no field of its Schema message.
      detail: "400 INVALID_ARGUMENT: Invalid JSON payload received. Unknown name \"x-content-type\" at 'tools[0].function_declarations[0].parameters': Cannot find field.",
      takesDown: 'request',
    });
    expect(Object.keys(json.server)).toEqual(['label', 'target', 'name', 'version', 'protocolVersion', 'pages', 'listedInMs', 'findings', 'hosts', 'targets', 'weight']);
  });
});

describe('one finding per cause, judged by the hosts', async () => {
  const notionTools = recorded('notion-mcp-server') as { name: string; inputSchema: { $defs?: Record<string, unknown> } }[];
  const notion = await lintTools(notionTools);
  const github = recorded('server-github');

  /** Written apart from src/lint/refs.ts: the $defs names a schema reaches, following "#/$defs/NAME" strings from outside $defs. */
  function unusedBytes(schema: { $defs?: Record<string, unknown> }): number {
    const defs = schema.$defs ?? {};
    const { $defs: _, ...rest } = schema;
    const used = new Set<string>();
    let frontier = JSON.stringify(rest);
    for (;;) {
      const found = [...frontier.matchAll(/"#\/\$defs\/([^"]+)"/g)].map((m) => m[1]!).filter((n) => !used.has(n));
      if (found.length === 0) break;
      found.forEach((n) => used.add(n));
      frontier = found.map((n) => JSON.stringify(defs[n])).join('');
    }
    return Object.keys(defs).filter((n) => !used.has(n)).reduce((sum, n) => sum + Buffer.byteLength(`${JSON.stringify(n)}:${JSON.stringify(defs[n])}`), 0);
  }

  it("Notion: API-get-user's one parameter: its uuid format, the $defs it never references, with its size, and strict mode's refusal", () => {
    const user = notion.tools.find((t) => t.name === 'API-get-user')!;
    expect(user.findings.map((f) => [f.rule, f.path, f.bytes])).toEqual([
      // "format": "uuid": the Gemini legacy field takes only "enum" and "date-time".
      ['format', '/inputSchema/properties/user_id/format', undefined],
      ['unused-defs', '/inputSchema/$defs', unusedBytes(notionTools.find((t) => t.name === 'API-get-user')!.inputSchema)],
      // OpenAI strict mode's additionalProperties requirement, which no rule names.
      ['host-refusal', '', undefined],
    ]);
  });

  it('Notion: one cause per rule and path, the repeated $defs one cause naming all 24 tools and the bytes they repeat', () => {
    const keys = notion.causes!.map((c) => `${c.rule} ${c.path}`);
    expect(new Set(keys).size).toBe(keys.length);
    const unused = notion.causes!.filter((c) => c.rule === 'unused-defs');
    expect(unused).toHaveLength(1);
    expect(unused[0]!.tools).toEqual(notionTools.map((t) => t.name));
    const bytes = notionTools.reduce((n, t) => n + unusedBytes(t.inputSchema), 0);
    expect(unused[0]!.bytes).toBe(bytes);
    const list = Buffer.byteLength(JSON.stringify(notionTools));
    expect(unused[0]!.message).toContain(`${bytes} bytes repeated in all, ${Math.round((100 * bytes) / list)}% of the ${list}-byte tools/list`);
    // Nothing is reported inside a definition that a tool does not reach.
    for (const tool of notion.tools) {
      const schema = notionTools.find((t) => t.name === tool.name)!.inputSchema;
      const reached = JSON.stringify({ ...schema, $defs: undefined });
      for (const f of tool.findings.filter((f) => f.path.startsWith('/inputSchema/$defs/'))) {
        const name = f.path.split('/')[3]!;
        expect(JSON.stringify(schema).includes(`"#/$defs/${name}"`), `${tool.name} ${f.path}`).toBe(true);
        void reached;
      }
    }
  });

  it("the weight of tools/list: bytes as sent, tokens at 4 characters each, a warning past 12,800 tokens", async () => {
    const list = JSON.stringify(notionTools);
    expect(notion.server.weight).toEqual({ bytes: Buffer.byteLength(list), tokens: Math.ceil(list.length / 4) });
    expect(notion.tools[0]!.weight).toEqual({ bytes: Buffer.byteLength(JSON.stringify(notionTools[0])), tokens: Math.ceil(JSON.stringify(notionTools[0]).length / 4) });
    expect(notion.server.findings.map((f) => f.rule)).toContain('list-weight');
    // GitHub's 26 tools: 15,854 bytes, under a tenth of 128,000 tokens.
    expect((await lintTools(github)).server.findings.map((f) => f.rule)).not.toContain('list-weight');
  });

  it("GitHub's union of two objects: a warning naming Continue 2025-02 and Langflow when the historic Continue is not targeted; an error when it is", async () => {
    // Hand-derived: the Gemini API before 2025-03 refused unions and additionalProperties (docs/facts.md, section 2); Langflow keeps the first branch.
    const today = (await import('../src/lint/hosts.js')).HOST_IDS.filter((h) => h !== 'continue-gemini-2025-02');
    const path = '/inputSchema/properties/comments/items/anyOf';
    const find = (r: LintReport) => r.tools.find((t) => t.name === 'create_pull_request_review')!.findings.find((f) => f.path === path)!;
    const warned = find(await lintTools(github, 'github', undefined, today));
    expect(warned.rule).toBe('no-structural-union');
    expect(warned.severity).toBe('warning');
    expect(warned.hurts!.map((h) => h.host)).toEqual(expect.arrayContaining(['continue-gemini-2025-02', 'langflow']));
    expect(warned.message).toMatch(/refused for it by continue-gemini-2025-02/);
    expect(warned.message).toMatch(/langflow/);
    // OpenAI strict mode refuses the tool too, for its optional parameters: not this union's doing.
    expect(warned.hurts!.map((h) => h.host)).not.toContain('openai-strict');
    expect(find(await lintTools(github)).severity).toBe('error');
  });

  it('the HTML page: one row per cause naming its tools, its fix, and the weight per tool and in all', async () => {
    const { renderLintPage } = await import('../src/lint/html.js');
    const page = renderLintPage([notion]);
    const list = JSON.stringify(notionTools);
    expect(page).toContain(`tools/list ${Buffer.byteLength(list)} bytes, about ${Math.ceil(list.length / 4)} tokens`);
    expect(page).toContain(`<td>24 tools: <code>API-get-user</code>, <code>API-get-users</code>`);
    expect(page.match(/<td class="sev-(error|warning|info)">/g)).toHaveLength(notion.causes!.length);
    const first = JSON.stringify(notionTools[0]);
    expect(page).toContain(`<td>${Buffer.byteLength(first)} bytes, ~${Math.ceil(first.length / 4)} tokens</td>`);
  });

  it('outputSchema is linted with the same rules, as info: no host shows it to a model', async () => {
    const fs = await lintTools(recorded('server-filesystem'));
    expect(fs.tools.flatMap((t) => t.findings.filter((f) => f.path.startsWith('/outputSchema')).map((f) => `${t.name} ${f.severity} ${f.rule} ${f.path}`))).toEqual([
      // read_media_file's content items: anyOf of an image/audio object and a resource object, the latter's type a const.
      'read_media_file info no-structural-union /outputSchema/properties/content/items/anyOf',
      'read_media_file info const /outputSchema/properties/content/items/anyOf/1/properties/type/const',
    ]);
  });

  it('every finding that names a host agrees with that host in the matrix, on every recorded server', async () => {
    const { HOST_IDS } = await import('../src/lint/hosts.js');
    for (const name of ['notion-mcp-server', 'server-github', 'openapi-pet-clinic', 'server-everything', 'server-filesystem', 'server-memory']) {
      const report = name === 'notion-mcp-server' ? notion : await lintTools(recorded(name));
      for (const tool of report.tools)
        for (const f of tool.findings) {
          // The hosts that refuse the tool for another cause are named apart, and do refuse or drop it.
          const at = f.message.indexOf('still refused or dropped for another cause by');
          const [said, others] = at === -1 ? [f.message, ''] : [f.message.slice(0, at), f.message.slice(at)];
          const named = HOST_IDS.filter((h) => new RegExp(`(^|[^\\w-])${h}([^\\w-]|$)`).test(said));
          expect(named.sort(), `${name} ${tool.name} ${f.path}`).toEqual([...new Set((f.hurts ?? []).map((h) => h.host))].sort());
          for (const h of HOST_IDS.filter((h) => new RegExp(`(^|[^\\w-])${h}([^\\w-]|$)`).test(others)))
            expect(['refused', 'dropped'], `${name} ${tool.name} ${h}`).toContain(tool.hosts[h]!.verdict);
          // A host-refusal names its host in its own words: the host does refuse or drop the tool (or the whole list).
          if (f.rule === 'host-refusal') for (const hurt of f.hurts!) expect(['refused', 'dropped']).toContain(tool.hosts[hurt.host]!.verdict);
          for (const hurt of f.rule === 'host-refusal' ? [] : (f.hurts ?? [])) {
            const v = tool.hosts[hurt.host]!;
            if (hurt.verdict === 'lossy') expect(v.lost!.some((l) => l.path === f.path), `${name} ${tool.name} ${hurt.host}`).toBe(true);
            else expect(v.verdict).toBe(hurt.verdict);
            const clause = { refused: /refused for it by ([^;]+)/, dropped: /dropped for it by ([^;]+)/, lossy: /lost on ([^(;]+)/ }[hurt.verdict].exec(f.message)?.[1] ?? '';
            expect(clause.split(',').map((h) => h.replace(/\(unconfirmed\)/, '').trim()), `${name} ${tool.name} ${f.path}`).toContain(hurt.host);
            // A hurt resting on unconfirmed evidence is said so, and only then.
            expect(new RegExp(`${hurt.host} \\(unconfirmed\\)`).test(f.message), `${name} ${tool.name} ${f.path} ${hurt.host}`).toBe(hurt.unconfirmed === true && hurt.verdict !== 'lossy');
          }
          // Severity follows the targeted hosts: error where one refuses or drops on confirmed evidence, warning where one is
          // hurt otherwise, info where none is (a name MCP itself forbids is an error whatever the hosts).
          const targeted = (f.hurts ?? []).filter((h) => report.server.targets!.includes(h.host));
          const expected = targeted.some((h) => h.verdict !== 'lossy' && !h.unconfirmed) ? 'error' : targeted.length > 0 ? 'warning' : 'info';
          if (f.hurts && f.rule !== 'tool-name') expect(f.severity, `${name} ${tool.name} ${f.path}`).toBe(expected);
        }
    }
  });
});

describe('a free-form map: additionalProperties: {} (issue 33)', () => {
  // MongoDB's and Firecrawl's documents: an object whose other keys take any value, by design.
  const map = { type: 'object', properties: { doc: { type: 'object', description: 'Any document.', additionalProperties: {} }, tag: { description: 'A tag.' } } };

  it('is not untyped, and a host that drops the {} loses nothing by it; a property with no type still is untyped', async () => {
    const { HOST_SETS } = await import('../src/lint/hosts.js');
    const report = await lintTools([{ name: 'store', description: 'Stores a document.', inputSchema: map }], 'store', undefined, HOST_SETS.today);
    const store = report.tools[0]!;
    expect(store.findings.map((f) => `${f.rule} ${f.path}`)).toEqual(['untyped /inputSchema/properties/tag']);
    // Langflow drops additionalProperties (src/lab/profiles/langflow.ts): a {} is what it leaves, so no loss is claimed for it.
    const lost = Object.values(store.hosts).flatMap((v) => v.lost ?? []);
    expect(lost.filter((l) => l.path.endsWith('/doc/additionalProperties'))).toEqual([]);
  });
});
