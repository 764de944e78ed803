/**
 * The learner's path speaks English and Spanish. `--lang` wins; otherwise the
 * locale (LC_ALL, LC_MESSAGES, LANG) decides: "es_*" is Spanish, anything else English.
 */
import { translator } from '../core/lang.js';

export { detectLang, translator } from '../core/lang.js';

const MESSAGES = {
  learnerName: { en: 'Your name (for your notes in learners/<name>/):', es: 'Tu nombre (para tus notas en learners/<nombre>/):' },
  predictIntro: {
    en: 'Predict before you run. Your answers are saved and locked once the run starts; you can revise them later only as a new, dated entry.',
    es: 'Predice antes de ejecutar. Tus respuestas se guardan y quedan fijadas en cuanto empieza la ejecución; luego solo puedes revisarlas con una entrada nueva y fechada.',
  },
  previousPrediction: { en: 'You predicted this lab before, on', es: 'Ya predijiste este laboratorio el' },
  revising: { en: 'This will be saved as a revision, next to the earlier one.', es: 'Se guardará como una revisión, junto a la anterior.' },
  reasoning: { en: 'In one line: why do you expect that?', es: 'En una línea: ¿por qué esperas eso?' },
  skip: { en: '(Enter to skip)', es: '(Intro para saltar)' },
  numberRange: { en: 'a number from {min} to {max}', es: 'un número de {min} a {max}' },
  locked: { en: 'Predictions saved and locked in', es: 'Predicciones guardadas y fijadas en' },
  running: { en: 'Running', es: 'Ejecutando' },
  noPredict: {
    en: 'Not asking for predictions (--no-predict): this run goes into your notes without them.',
    es: 'Sin predicciones (--no-predict): esta ejecución va a tus notas sin ellas.',
  },
  exploring: {
    en: 'Exploring with your own settings (--client, --server, ...): the lab\'s questions are about its own runs, so none are asked.',
    es: 'Explorando con tus propios ajustes (--client, --server, ...): las preguntas del laboratorio son sobre sus propias ejecuciones, así que no se hacen.',
  },
  noTty: {
    en: 'This terminal cannot answer questions. Run it in a terminal, or add --no-predict (run without predictions) or --predict FILE (answers from a JSON file; see README.md).',
    es: 'Esta terminal no puede responder preguntas. Ejecútalo en una terminal, o añade --no-predict (sin predicciones) o --predict FICHERO (respuestas desde un JSON; ver README.md).',
  },
  compareTitle: { en: 'Your predictions next to what was measured', es: 'Tus predicciones junto a lo que se midió' },
  question: { en: 'question', es: 'pregunta' },
  predicted: { en: 'predicted', es: 'predicho' },
  measured: { en: 'measured', es: 'medido' },
  range: { en: 'seeds range', es: 'rango' },
  scoredOn: { en: 'run', es: 'ejecución' },
  progress: { en: 'running the lab: seed {n} of {count}', es: 'ejecutando el laboratorio: semilla {n} de {count}' },
  workspaceExists: {
    en: '{dir} already exists; your edits are there. To start over: npm run lab -- --variant {lab} --reset',
    es: '{dir} ya existe; tus cambios están ahí. Para empezar de nuevo: npm run lab -- --variant {lab} --reset',
  },
  notALabel: { en: '"{typed}" is not an outcome; outcomes are {labels} (or any JSON-RPC code)', es: '"{typed}" no es un resultado; los resultados son {labels} (o cualquier código JSON-RPC)' },
  inRange: { en: '(inside the range)', es: '(dentro del rango)' },
  compareSeeds: { en: 'Measured over {count} seeds: the mean, and the least and most one seed gave.', es: 'Medido en {count} semillas: la media, y lo mínimo y lo máximo que dio una semilla.' },
  off: { en: 'off by', es: 'desvío' },
  right: { en: 'right', es: 'acierto' },
  wrong: { en: 'wrong', es: 'fallo' },
  unanswered: { en: '(no answer)', es: '(sin respuesta)' },
  assumedWrong: { en: 'What did you assume that turned out wrong? (one line, optional)', es: '¿Qué supusiste que resultó ser falso? (una línea, opcional)' },
  savedNotes: { en: 'Saved to your notes:', es: 'Guardado en tus notas:' },
  next: { en: 'Next', es: 'Siguiente' },
  nextRead: { en: 'read what to observe and why', es: 'lee qué observar y por qué' },
  nextWorkspace: { en: 'get the broken server into your workspace and fix it', es: 'copia el servidor averiado a tu espacio de trabajo y arréglalo' },
  nextCheck: { en: 'prove the fix', es: 'demuestra el arreglo' },
  interrupted: { en: 'Interrupted: nothing was written for this run.', es: 'Interrumpido: no se escribió nada de esta ejecución.' },
  needLearner: {
    en: 'Who is this for? Add --learner <your name> (remembered after the first time).',
    es: '¿Para quién es? Añade --learner <tu nombre> (se recuerda después de la primera vez).',
  },
  workspaceReady: { en: 'Your workspace is ready. Open and fix:', es: 'Tu espacio de trabajo está listo. Abre y arregla:' },
  workspaceThen: { en: 'Then prove the fix:', es: 'Después demuestra el arreglo:' },
  resetAsk: {
    en: 'Restore the broken workspace of {lab}? Your current one is kept in workspace/.trash/.',
    es: '¿Restaurar el espacio de trabajo averiado de {lab}? El actual se guarda en workspace/.trash/.',
  },
  resetNoTty: { en: 'Resetting needs a yes: run it in a terminal, or add --yes.', es: 'Restaurar necesita un sí: ejecútalo en una terminal o añade --yes.' },
  resetDone: { en: 'Restored the broken workspace:', es: 'Espacio de trabajo averiado restaurado:' },
  resetKept: { en: 'Your previous workspace is kept in', es: 'Tu espacio de trabajo anterior se guarda en' },
  cancelled: { en: 'Nothing changed.', es: 'No se cambió nada.' },
  noSuchHint: { en: 'This lab has {count} hints: ask for 1 to {count}.', es: 'Este laboratorio tiene {count} pistas: pide de 1 a {count}.' },
  nextHint: { en: 'Next hint:', es: 'Siguiente pista:' },
  catalogueTitle: { en: 'schema-breaks: the labs', es: 'schema-breaks: los laboratorios' },
  stateNotStarted: { en: 'not started', es: 'sin empezar' },
  statePredicted: { en: 'predicted', es: 'predicho' },
  stateRun: { en: 'run', es: 'ejecutado' },
  stateFixed: { en: 'fixed', es: 'arreglado' },
  whatNext: { en: 'What next?', es: '¿Y ahora?' },
  chooseLab: { en: 'Which lab?', es: '¿Qué laboratorio?' },
  chooseAction: { en: 'What do you want to do?', es: '¿Qué quieres hacer?' },
  actionRead: { en: 'Read the lab sheet', es: 'Leer la hoja del laboratorio' },
  actionRun: { en: 'Predict, then run', es: 'Predecir y después ejecutar' },
  actionWorkspace: { en: 'Get the broken server into my workspace', es: 'Copiar el servidor averiado a mi espacio de trabajo' },
  actionCheck: { en: 'Check my fix', es: 'Comprobar mi arreglo' },
  actionHint: { en: 'Show a hint', es: 'Ver una pista' },
  chooseHint: { en: 'Which hint? (each gives away a little more)', es: '¿Qué pista? (cada una revela un poco más)' },
  actionQuit: { en: 'Quit', es: 'Salir' },
  allDone: { en: 'Every lab is fixed. Well done.', es: 'Todos los laboratorios están arreglados. Bien hecho.' },
  checkTitle: { en: 'Checking your workspace', es: 'Comprobando tu espacio de trabajo' },
  checkBuild: { en: 'Your server does not build or does not start:', es: 'Tu servidor no compila o no arranca:' },
  checkContractOk: { en: 'Schema contract tests: all rules pass.', es: 'Pruebas de contrato del esquema: se cumplen todas las reglas.' },
  checkContractBad: { en: 'Schema contract tests: these rules still fail:', es: 'Pruebas de contrato del esquema: estas reglas aún fallan:' },
  checkRunOk: { en: 'as good as the reference solution on every figure', es: 'tan bien como la solución de referencia en todas las cifras' },
  checkRunBetter: { en: 'as good as the reference solution, and better on:', es: 'tan bien como la solución de referencia, y mejor en:' },
  checkRunBad: { en: 'still worse than the reference solution:', es: 'aún peor que la solución de referencia:' },
  checkReference: { en: 'reference solution', es: 'solución de referencia' },
  checkTypes: { en: 'Your workspace does not type-check (tsc):', es: 'Tu espacio de trabajo no pasa la comprobación de tipos (tsc):' },
  checkTypesOk: { en: 'It type-checks (tsc).', es: 'Pasa la comprobación de tipos (tsc).' },
  checkFixed: { en: 'Fixed. The lab is marked done. Compare with the reference solution:', es: 'Arreglado. El laboratorio queda marcado como hecho. Compara con la solución de referencia:' },
  checkNotFixed: { en: 'Not fixed yet. Hints:', es: 'Aún sin arreglar. Pistas:' },
  noWorkspace: { en: 'You have no workspace for {lab} yet. Create it with:', es: 'Aún no tienes espacio de trabajo para {lab}. Créalo con:' },
} as const;

export type MessageId = keyof typeof MESSAGES;


export const t = translator<MessageId>(MESSAGES);
