/**
 * The workshop pages and summaries speak English and Spanish, like the
 * learner's path (src/learn/i18n.ts): `--lang` wins, else the locale.
 */
import type { Lang } from '../learn/catalogue.js';
import { translator } from '../learn/i18n.js';

const MESSAGES = {
  // the class report
  reportTitle: { en: 'Class report', es: 'Informe de la clase' },
  kit: { en: 'schema-breaks workshop', es: 'taller schema-breaks' },
  noJournals: { en: 'No journals found under {folder}.', es: 'No se encontró ningún diario en {folder}.' },
  noJournalsHint: {
    en: 'Copy every laptop\'s learners/ folder into one folder, then run: npm run class -- report FOLDER',
    es: 'Copia la carpeta learners/ de cada portátil en una sola carpeta y ejecuta: npm run class -- report CARPETA',
  },
  journalsCounted: { en: '{count} journals counted', es: '{count} diarios contados' },
  journalCounted: { en: '1 journal counted', es: '1 diario contado' },
  unreadableTitle: { en: 'Journals that could not be read (skipped; the rest still count)', es: 'Diarios que no se pudieron leer (omitidos; el resto cuenta)' },
  unreadableCount: { en: '{count} could not be read and were skipped', es: '{count} no se pudieron leer y se omitieron' },
  duplicateNames: { en: '{count} journals are named {name}: counted separately', es: '{count} diarios se llaman {name}: contados por separado' },
  generated: { en: 'Generated', es: 'Generado' },
  folder: { en: 'Folder', es: 'Carpeta' },
  learnersList: { en: 'Journals counted', es: 'Diarios contados' },
  entry1: { en: '1 entry', es: '1 entrada' },
  entriesN: { en: '{count} entries', es: '{count} entradas' },
  ranOf: { en: '{ran} of {total} ran it', es: '{ran} de {total} lo ejecutaron' },
  labsNav: { en: 'Labs', es: 'Laboratorios' },
  question: { en: 'question', es: 'pregunta' },
  noPredictionsFor: { en: 'Questions nobody answered', es: 'Preguntas que nadie respondió' },
  labStats: {
    en: '{ran} of {learners} ran it · {predicted} predicted before their latest run ({revised} revised)',
    es: '{ran} de {learners} lo ejecutaron · {predicted} predijeron antes de su última ejecución ({revised} con revisión)',
  },
  predictedNotRun: { en: '{count} predicted but have not run it yet', es: '{count} predijeron pero aún no lo han ejecutado' },
  noRuns: { en: 'Nobody has run this lab yet.', es: 'Nadie ha ejecutado este laboratorio todavía.' },
  noPredictions: { en: 'No predictions for this question.', es: 'Ninguna predicción para esta pregunta.' },
  answered: { en: '{count} answered', es: '{count} respondieron' },
  measured: { en: 'measured', es: 'medido' },
  measuredValue: { en: 'measured {value}', es: 'medido {value}' },
  measuredDiffer: {
    en: 'Learners measured different values (different seeds or workload sizes): {values}. Compared with the most common, {value}.',
    es: 'Los participantes midieron valores distintos (semillas o tamaños de carga distintos): {values}. Se compara con el más frecuente, {value}.',
  },
  learnersN: { en: '{count} learners', es: '{count} participantes' },
  learner1: { en: '1 learner', es: '1 participante' },
  min: { en: 'min', es: 'mín.' },
  median: { en: 'median', es: 'mediana' },
  max: { en: 'max', es: 'máx.' },
  offBy: { en: 'off by', es: 'desvío' },
  medianOff: { en: 'median off by', es: 'desvío mediano' },
  namedRight: { en: '{right} of {answered} named it right', es: '{right} de {answered} acertaron' },
  prediction: { en: 'prediction', es: 'predicción' },
  learners: { en: 'learners', es: 'participantes' },
  label: { en: 'outcome typed', es: 'resultado escrito' },
  correct: { en: 'right', es: 'acierto' },
  dataTable: { en: 'Data table', es: 'Tabla de datos' },
  dotPlotDesc: {
    en: 'Each dot is one learner\'s prediction on a scale from {lo} to {hi}. The line marks the measured value, {value}. Lowest {min}, median {median}, highest {max}.',
    es: 'Cada punto es la predicción de un participante en una escala de {lo} a {hi}. La línea marca el valor medido, {value}. Mínimo {min}, mediana {median}, máximo {max}.',
  },
  barsDesc: {
    en: 'How many learners typed each outcome. The measured outcome was {value}; {right} of {answered} named it.',
    es: 'Cuántos participantes escribieron cada resultado. El resultado medido fue {value}; {right} de {answered} acertaron.',
  },
  predictionsOf: { en: 'Predictions: {id}', es: 'Predicciones: {id}' },
  assumedWrong: { en: 'What I assumed wrong', es: 'Lo que supuse mal' },
  noReflections: { en: 'No reflections yet.', es: 'Aún no hay reflexiones.' },
  langName_en: { en: 'in English', es: 'en inglés' },
  langName_es: { en: 'in Spanish', es: 'en español' },
  langName_other: { en: 'other language', es: 'otro idioma' },
  moreLines: { en: '… and {count} more', es: '… y {count} más' },
  pageWritten: { en: 'Page written to', es: 'Página escrita en' },
  // the handout
  handoutKicker: { en: 'schema-breaks · lab handout', es: 'schema-breaks · hoja del laboratorio' },
  name: { en: 'Name', es: 'Nombre' },
  date: { en: 'Date', es: 'Fecha' },
  predictTitle: { en: 'Predict before you run', es: 'Predice antes de ejecutar' },
  predictIntro: {
    en: 'Write a number (or an outcome) in each box, then one line on why. Run the lab only after that.',
    es: 'Escribe un número (o un resultado) en cada casilla y una línea con el porqué. Ejecuta el laboratorio solo después.',
  },
  range: { en: '{min} to {max}', es: 'de {min} a {max}' },
  outcomeHint: { en: 'a JSON-RPC code or a label', es: 'un código JSON-RPC o una etiqueta' },
  scoredOn: { en: 'run', es: 'ejecución' },
  why: { en: 'Why do you expect that? (one line)', es: '¿Por qué esperas eso? (una línea)' },
  afterwards: { en: 'After the run: what did you assume that turned out wrong?', es: 'Después de ejecutar: ¿qué supusiste que resultó ser falso?' },
  command: { en: 'Then run', es: 'Después ejecuta' },
  handoutWritten: { en: 'Handout written to', es: 'Hoja escrita en' },
} as const;

export type ClassMessageId = keyof typeof MESSAGES;

export const ct = translator<ClassMessageId>(MESSAGES);

/** A number as a person reads it in that language: 3.5 / 3,5; at most two decimals. */
export function num(value: number, lang: Lang): string {
  const rounded = Math.round(value * 100) / 100;
  const text = String(rounded);
  return lang === 'es' ? text.replace('.', ',') : text;
}
