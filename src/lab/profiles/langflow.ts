/** langflow: MCP tools turned into Pydantic models (the emulator is in pydantic.ts). */
import type { SeenTool } from '../types.js';
import { langflowModel, pydanticText, renderPy, RootNotObject, validateModel, type PyError, type PyModel } from './pydantic.js';
import { droppedServer, schemaOf, seenTool, type ClientProfile } from './shared.js';

/** The Pydantic model behind each seen schema this profile produced; a seen schema from elsewhere is re-read. */
const langflowModels = new WeakMap<object, PyModel>();

export const langflow: ClientProfile = {
  id: 'langflow',
  title: 'Langflow MCP tools: schema rebuilt as a Pydantic model (enum/const dropped, first anyOf branch kept, oneOf untyped)',
  asOf: 'langflow lfx json_schema.py at 07cdd0a4 (2026-03-27 or later: it has PR #12359\'s guards)',
  released: '2026-03-27',
  evidence: { kind: 'code', date: '2026-03-27', source: 'langflow lfx json_schema.py read at 07cdd0a4; Pydantic emulated' },
  sources: [
    'langflow src/lfx/src/lfx/schema/json_schema.py create_input_schema_from_json_schema at commit 07cdd0a4a75f (the `building` guard of PR #12359, opened 2026-03-27; an object without properties as dict[str, Any]; a type list read); the earlier f650516d has none of the three: an object without properties became an empty model dropping every key, a type list raised TypeError',
    'langflow-ai/langflow PR 7941 "fix: mcp anyOf support" (2025-05-07)',
    'langflow src/backend/base/langflow/base/mcp/util.py (PR 7941 era): update_tools raises "Failed to create tool ..."; create_tool_coroutine: model_validate, then run_tool(arguments=validated.model_dump())',
    'langflow-ai/langflow#8059 (2025-05-15, open): the MCP component sends null for an optional parameter left out (PR 12622, 2026-04-10, for #12616, stops forwarding blank strings and empty objects from the component\'s inputs; it does not name null)',
  ],
  notes:
    'Rejection: update_tools re-raises the ValueError for one bad tool, so the whole server fails to load, as ' +
    '"Failed to create tool \'<name>\' from server \'<server>\': Root schema must be type \'object\'"; the profile does not ' +
    'know the server\'s name and writes <server>. The seen schema is the Pydantic model\'s field types written back as ' +
    'plain JSON Schema (not Pydantic\'s model_json_schema, which would add titles and anyOf-null for optional fields). ' +
    'Client check: Pydantic v2 lax validation of that model, error texts as pydantic-core words them, prefixed ' +
    '"Invalid input: " as create_tool_coroutine does, model name InputSchema as langflow names it, without the ' +
    '"For further information visit" lines and without pydantic\'s truncation of long input values. Unknown keys are ' +
    'dropped, and, as model_dump() does in this era, every optional field the model left out is sent as null (or its ' +
    'schema default): the server receives keys the model never wrote. Coercions are a subset (numeric strings, bool words).',
  present(tools) {
    const seen: SeenTool[] = [];
    for (const tool of tools) {
      let model: PyModel;
      try {
        model = langflowModel(schemaOf(tool));
      } catch (error) {
        if (error instanceof RootNotObject)
          // update_tools is read in PR 7941's era (2025-05), before the json_schema.py this profile models.
          return droppedServer(`Failed to create tool '${tool.name}' from server '<server>': ${error.message}`, {
            kind: 'code',
            date: '2025-05-07',
            source: "langflow mcp/util.py update_tools of PR 7941's era, older than 07cdd0a4",
            unconfirmed: true,
          });
        throw error;
      }
      const inputSchema = renderPy(model);
      langflowModels.set(inputSchema, model);
      seen.push(seenTool(tool, inputSchema));
    }
    return { tools: seen };
  },
  validate(tool, args) {
    let model = langflowModels.get(tool.inputSchema);
    if (!model) {
      try {
        model = langflowModel(tool.inputSchema);
      } catch (error) {
        if (error instanceof RootNotObject) return { ok: false, error: error.message };
        throw error;
      }
    }
    const errors: PyError[] = [];
    const dumped = validateModel(model, args, [], errors);
    if (errors.length > 0) return { ok: false, error: `Invalid input: ${pydanticText(model.name, errors)}` };
    return { ok: true, args: dumped };
  },
};
