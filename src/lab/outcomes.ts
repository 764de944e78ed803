/**
 * The outcome labels, defined once: what each means, its colour (an ANSI
 * code; the pages turn it into a screen colour) and its texture (so that the
 * colour is never the only cue). The terminal report, the HTML pages and the
 * sweep all read this table.
 */
import type { Lang } from '../core/lang.js';

export type Texture = 'solid' | 'diagonal' | 'back-diagonal' | 'dots' | 'cross' | 'horizontal' | 'vertical' | 'grid' | 'zigzag';

export interface OutcomeLook {
  /** An ANSI SGR colour code. */
  ansi: string;
  texture: Texture;
  meaning: Record<Lang, string>;
}

/** Every label the runner gives, in the order legends list them. */
export const OUTCOMES: Record<string, OutcomeLook> = {
  ok: { ansi: '32', texture: 'solid', meaning: { en: 'the tool answered', es: 'la herramienta respondió' } },
  isError: {
    ansi: '33',
    texture: 'diagonal',
    meaning: { en: 'a tool result with isError: true (the model reads its text)', es: 'un resultado con isError: true (el modelo lee su texto)' },
  },
  'rpc:-32602': {
    ansi: '35',
    texture: 'dots',
    meaning: { en: 'JSON-RPC error -32602, invalid params (the model reads the message)', es: 'error JSON-RPC -32602, parámetros inválidos (el modelo lee el mensaje)' },
  },
  'rpc:-32603': {
    ansi: '31',
    texture: 'cross',
    meaning: { en: 'JSON-RPC error -32603, internal error (the model reads the message)', es: 'error JSON-RPC -32603, error interno (el modelo lee el mensaje)' },
  },
  'rpc:-32601': { ansi: '95', texture: 'back-diagonal', meaning: { en: 'JSON-RPC error -32601, method not found', es: 'error JSON-RPC -32601, método no encontrado' } },
  'client-rejected': {
    ansi: '34',
    texture: 'horizontal',
    meaning: { en: 'the host refused the tool list: nothing ran', es: 'el anfitrión rechazó la lista de herramientas: nada se ejecutó' },
  },
  'client-invalid': {
    ansi: '36',
    texture: 'vertical',
    meaning: { en: "the host's own argument check failed: nothing was sent", es: 'falló la comprobación de argumentos del propio anfitrión: no se envió nada' },
  },
  'no-call': {
    ansi: '90',
    texture: 'grid',
    meaning: { en: 'the model made no call: it could not say the request with the schema it was shown', es: 'el modelo no llamó: no pudo expresar la petición con el esquema que vio' },
  },
  'max-turns': {
    ansi: '93',
    texture: 'zigzag',
    meaning: { en: "the agent's run ran out of model turns (OpenAI Agents SDK: 10)", es: 'la ejecución del agente se quedó sin turnos del modelo (OpenAI Agents SDK: 10)' },
  },
  timeout: { ansi: '91', texture: 'zigzag', meaning: { en: 'no answer in time', es: 'sin respuesta a tiempo' } },
  'server-exit': { ansi: '41', texture: 'back-diagonal', meaning: { en: 'the server process died', es: 'el proceso del servidor murió' } },
  'bad-reply': { ansi: '37', texture: 'dots', meaning: { en: 'a reply that is not a valid answer', es: 'una respuesta que no es válida' } },
  'model-error': {
    ansi: '45',
    texture: 'cross',
    meaning: {
      en: 'a real model (--model openai): the endpoint failed the request, or the model called a tool it was not shown (the SDK ends the run)',
      es: 'un modelo real (--model openai): el endpoint falló la petición, o el modelo llamó a una herramienta que no se le mostró (el SDK termina la ejecución)',
    },
  },
};

const SPARE: Texture[] = ['dots', 'zigzag', 'grid', 'back-diagonal', 'vertical', 'horizontal', 'diagonal', 'cross'];

function hash(text: string): number {
  let h = 0;
  for (const ch of text) h = (h * 31 + ch.codePointAt(0)!) >>> 0;
  return h;
}

/** The look of any label: its own, or grey with a texture picked by the label (rpc:-32000, ...). */
export function outcomeLook(label: string): Omit<OutcomeLook, 'meaning'> {
  const known = Object.hasOwn(OUTCOMES, label) ? OUTCOMES[label] : undefined;
  return known ?? { ansi: '37', texture: SPARE[hash(label) % SPARE.length]! };
}

/** What a label means, in words; undefined for a label the table does not have. */
export function outcomeMeaning(label: string, lang: Lang): string | undefined {
  return Object.hasOwn(OUTCOMES, label) ? OUTCOMES[label]!.meaning[lang] : undefined;
}
