/**
 * The schema contract's messages, in Spanish. Typed by en-contract.ts's ids:
 * a missing id, or one English does not have, fails the type check. The
 * checker's own words for a shape it was not taught (`{found}`, `{shapes}`)
 * stay in English: they name JSON Schema keywords and the checker's source.
 */
import type { ContractMessageId } from './en-contract.js';
import type { Message } from './types.js';

export const esContract: Record<ContractMessageId, Message> = {
  'contract.structuralUnion':
    '{keyword} con {structured} ramas estructuradas (de {branches}); los anfitriones lo rechazan (Gemini) o se quedan solo con la primera rama (Langflow). Usa un solo objeto con campos opcionales, parámetros separados, o un esquema permisivo que el servidor reparta.',
  'contract.rootNotObject': 'la raíz debe ser de type "object" (es {got})',
  'contract.schemaDialect':
    'el esquema dice estar escrito en {named}: un anfitrión lo compila con su propio validador, y uno que no puede cargar ese dialecto pierde la herramienta (VS Code la deja fuera; gemini-cli falla su primera llamada). Publica draft-07, o ningún "$schema" (zod 4: z.toJSONSchema(schema, { target: "draft-7" })).',
  'contract.noParameters':
    'no publica ningún parámetro, pero el contrato tiene {wanted}: los clientes no pueden ver qué necesita la herramienta (un transform, un pipe o una unión en la raíz publican {"type":"object","properties":{}})',
  'contract.parameterNotPublished': 'el parámetro "{name}" del contrato no está publicado',
  'contract.parameterType': 'el parámetro "{name}" se publica como {got}; el contrato dice {want}',
  'contract.parameterNotInContract': 'el parámetro "{name}" está publicado pero no está en el contrato',
  'contract.parameterNotRequired':
    'el contrato necesita el parámetro "{name}", pero falta en "required": una llamada sin él pasa la validación y falla dentro de la herramienta',
  'contract.untaughtShape':
    '{found} en {path}: al comprobador del contrato no se le enseñó esta forma, así que las reglas 1 a 3 no pueden responder por ella. Enséñasela en src/contract/rules.ts (TAUGHT_SHAPES, y cómo la leen typeOf y findStructuralUnions), o publica una forma que conozca: {shapes}.',
  'contract.ranTheToolRpc': 'una llamada sin ninguno de {required} ejecutó la herramienta en vez de ser rechazada; el servidor respondió JSON-RPC {code}: {answer}',
  'contract.ranTheToolIsError': 'una llamada sin ninguno de {required} ejecutó la herramienta en vez de ser rechazada; el servidor respondió un resultado isError: {answer}',
  'contract.ranTheToolResult': 'una llamada sin ninguno de {required} ejecutó la herramienta en vez de ser rechazada; el servidor respondió un resultado: {answer}',
  'contract.outputNoExample': 'la herramienta "{tool}" publica un outputSchema, y el contrato no da ninguna llamada de ejemplo con la que comprobar sus resultados: añade el "example" del cuerpo de la petición al contrato',
  'contract.outputRefused': 'el cliente rechazó la llamada de ejemplo del contrato, JSON-RPC {code}: {answer}. Una herramienta que publica un outputSchema debe devolver un structuredContent que encaje en él.',
  'contract.outputIsError': 'la llamada de ejemplo del contrato volvió como un resultado isError: {answer}. Una herramienta que publica un outputSchema debe devolver un structuredContent que encaje en él.',
  'contract.outputMissing': 'la llamada de ejemplo del contrato volvió sin structuredContent, que un cliente que comprueba el outputSchema rechaza',
  'contract.toolTwice': 'la herramienta "{tool}" se publica más de una vez: un cliente se queda con una, y no se dice con cuál',
  'contract.toolNotInContract': 'la herramienta "{tool}" no está en el contrato',
  'contract.toolNotPublished': 'el contrato tiene "{tool}", pero el servidor no la publica',
  'contract.nameCharacters': 'el nombre de herramienta "{tool}" tiene un carácter fuera de A-Z a-z 0-9 _ -: MCP lo permite, las API de OpenAI y de Anthropic rechazan por él la petición entera',
  'contract.nameTooLong':
    'el nombre de herramienta "{tool}" pasa a ser "{prefixed}" en Claude Code, {length} caracteres: la API de Anthropic aceptaba {max} como mucho y rechazaba la petición entera, con todas las herramientas. Nombra la herramienta de modo que el prefijo siga cabiendo.',
  'contract.descriptionTooLong':
    'la descripción tiene {length} caracteres: la llamada a funciones de OpenAI acepta {max} como mucho y rechaza la petición entera, con todas las herramientas. Di qué hace la herramienta y cuándo usarla; lleva una guía de uso a las descripciones de los parámetros.',
  'contract.knownFixed':
    '{list} recoge una violación de la herramienta "{tool}" en {path} ({issue}), pero ahí ya no hay ninguna. Quita esa entrada (herramienta "{tool}", ruta "{path}", incidencia {issue}) de {list}, para que el fallo no pueda volver sin que nadie lo note.',
  'contract.knownFixedRule':
    '{list} recoge una violación de {rule} de la herramienta "{tool}" en {path} ({issue}), pero ahí ya no hay ninguna. Quita esa entrada (herramienta "{tool}", ruta "{path}", incidencia {issue}) de {list}, para que el fallo no pueda volver sin que nadie lo note.',
};
