/**
 * goose-google-2025-02: Goose v1.0.10 (block/goose, tag v1.0.10, 2025-02-26)
 * with its Google provider, in front of the Gemini API's legacy `parameters`
 * field as it was before 2025-03-13. format_tools and process_map are the
 * same from v1.0.0 (2025-01-27, introduced in 1c9a7c0b) to 6d28f447
 * (2025-02-27) and on to 2025-07-18.
 *
 * Goose extensions are MCP servers. The provider posts to
 * `{host}/v1beta/models/{model}:generateContent` (crates/goose/src/providers/google.rs)
 * with `"tools": {"functionDeclarations": [...]}`: an object, not a list
 * (crates/goose/src/providers/formats/google.rs create_request), so the parser names declarations `tools.function_declarations[i]`
 * (the path in aaif-goose/goose#5242) while the declaration checks still say
 * `GenerateContentRequest.tools[0]...` (aaif-goose/goose#1029, #1044).
 */
import type { JsonSchema } from '../types.js';
import { LEGACY_2025_02, legacyApiRefusal, type LegacyApiRules } from './gemini-api.js';
import { isObject, noParameters, passThrough, refusedRequest, schemaOf, seenTool, type ClientProfile } from './shared.js';

const API: LegacyApiRules = { ...LEGACY_2025_02, parsePrefix: 'tools.function_declarations' };

/** format_tools' accepted_tool_schema_attributes (google.rs at v1.0.10). */
const ACCEPTED = new Set(['type', 'format', 'description', 'nullable', 'enum', 'maxItems', 'minItems', 'properties', 'required', 'items']);

/**
 * serde_json without its `preserve_order` feature (Cargo.lock at v1.0.10:
 * serde_json 1.0.138 depends on itoa, memchr, ryu, serde only, no indexmap)
 * keeps every JSON object in a BTreeMap, so every object Goose parses and
 * sends has its keys in sorted order: the properties too. (Rust sorts by
 * UTF-8 bytes, JS by UTF-16 units: the same for the kit's ASCII names.)
 */
function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (!isObject(value)) return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, sortedKeys(value[key])]),
  );
}

/**
 * google.rs `process_map`, as written (v1.0.10):
 *   let should_remove = !accepted_keys.contains(key) && parent_key != Some("properties");
 *   ... Value::Object(nested_map) => process_map(nested_map, accepted_keys, Some(key)), _ => value.clone()
 *   if parent_key != Some("properties") && !filtered_map.contains_key("type") { insert "type": "string" }
 * So every key outside the allow-list goes, at every level, except directly
 * under `properties` (the parameter names); any node left without `type`
 * becomes a string, so a union, a `$ref` or a bare `const` is shown as
 * `{type: "string"}` without a word; values that are not objects (type
 * lists, enums, formats) pass unchanged. Modelled as written: a parameter
 * *named* "properties" has its own keys kept too.
 */
function processMap(map: Record<string, unknown>, parentKey: string | null): Record<string, unknown> {
  const filtered: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(map)) {
    if (!ACCEPTED.has(key) && parentKey !== 'properties') continue;
    filtered[key] = isObject(value) ? processMap(value, key) : structuredClone(value);
  }
  // Appended last, where the BTreeMap puts it too: "type" sorts after every other allowed key.
  if (parentKey !== 'properties' && !('type' in filtered)) filtered.type = 'string';
  return filtered;
}

/** A panic in format_tools: it calls `.unwrap()` where the schema is not what it expects. */
class GoosePanic extends Error {}

/**
 * format_tools: `parameters` only when the root `properties` is not empty:
 *   let props = tool_input_schema.get("properties").unwrap_or(&json!({})).as_object().unwrap().clone();
 *   if !props.is_empty() { parameters.insert("parameters", process_map(tool_input_schema, &accepted, None)) }
 * `as_object().unwrap()` panics on a root or a `properties` that is not an object.
 */
function gooseParameters(published: JsonSchema): JsonSchema | undefined {
  if (!isObject(published)) throw new GoosePanic('inputSchema is not an object');
  const schema = sortedKeys(published) as JsonSchema;
  const properties = 'properties' in schema ? schema.properties : {};
  if (!isObject(properties)) throw new GoosePanic('"properties" is not an object');
  if (Object.keys(properties).length === 0) return undefined;
  return processMap(schema, null);
}

export const gooseGoogle: ClientProfile = {
  id: 'goose-google-2025-02',
  title: 'Goose + Gemini legacy `parameters` (2025-02): a 10-key allow-list, anything left untyped becomes a string, silently',
  asOf: 'Goose v1.0.10, 2025-02-26, Gemini API before 2025-03-13',
  released: '2025-02-26',
  evidence: { kind: 'code', date: '2025-02-26', source: 'block/goose google.rs format_tools read at v1.0.10' },
  sources: [
    'block/goose crates/goose/src/providers/formats/google.rs format_tools, process_map and create_request at tag v1.0.10 (introduced in 1c9a7c0b "feat: V1.0 (#734)", 2025-01-24; unchanged to 6d28f447, 2025-02-27, and to 2025-07-18)',
    'block/goose Cargo.lock at tag v1.0.10 (serde_json without preserve_order: keys sorted)',
    'block/goose crates/goose/src/providers/google.rs at tag v1.0.10 (v1beta generateContent)',
    'gemini-api.ts LEGACY_2025_02: the Schema fields of 2025-02 (@google-ai/generativelanguage 2.9.1 content.proto; QuantumNous/new-api#766), which Goose\'s 10 keys all are',
    'aaif-goose/goose#1029 (2025-02-02, v1.0.4), #1044 (2025-02-03), #1184 (2025-02-11, v1.0.5): "only \'enum\' is supported for STRING type", Goose\'s framing',
    'aaif-goose/goose#974 (2025-01-31, docs: the Fetch extension conflicts with Gemini)',
    'aaif-goose/goose#5242 (the tools.function_declarations[i] parse path)',
    'WordPress/ai-provider-for-google#33, zed-industries/zed#53919 (type as a list); microsoft/azure-devops-mcp#145 (non-string enums)',
    'vercel/ai#3371, browser-use/browser-use#7 (should be non-empty for OBJECT type); cline/cline#7926 (items: missing field)',
  ],
  notes:
    'Nothing Goose sends can be an unknown keyword: the allow-list removes anyOf, oneOf, const, $ref, ' +
    'additionalProperties, default and the rest first, and every node left without a type becomes a string, so a ' +
    'union parameter is shown to the model as a plain string with no error (its answers are then wrong). What still ' +
    'fails, for every tool of the request, is what survives the list: a string format other than enum (2025-02: not ' +
    'even date-time), non-string enum values, a type given as a list, an empty nested object, an array without items. ' +
    'Keys reach the API, and the model, in sorted order (serde_json\'s BTreeMap), so the parse stage numbers ' +
    'properties alphabetically. A tool whose root has empty properties is sent without parameters and shown as ' +
    'taking none. A root or properties that is not an object makes format_tools panic (kit text). The "Request ' +
    'failed: ..." framing is Goose\'s (goose#1029); the message after it is the API\'s.',
  present(tools) {
    const declarations: (JsonSchema | undefined)[] = [];
    for (const tool of tools) {
      try {
        declarations.push(gooseParameters(schemaOf(tool)));
      } catch (error) {
        if (error instanceof GoosePanic)
          // The panic ends the request before it is sent, so every tool in it fails with it (modelled).
          return refusedRequest(`(kit text: format_tools calls .unwrap() on it and Goose panics) tool '${tool.name}': ${error.message}`);
        throw error;
      }
    }
    const refusal = legacyApiRefusal(API, declarations);
    // The API's answer rests on the 400s Goose users reported in 2025-02, not on Goose's code.
    if (refusal)
      return refusedRequest(`Request failed: Request failed with status: 400 Bad Request. Message: ${refusal}`, {
        kind: 'report',
        date: '2025-02-11',
        source: 'Gemini API 400s reported by Goose users (goose#1029, #1044, #1184)',
      });
    return { tools: tools.map((tool, i) => seenTool(tool, declarations[i] ?? noParameters())) };
  },
  // Goose sends the model's arguments as they are.
  validate: (_tool, args) => passThrough(args),
};
