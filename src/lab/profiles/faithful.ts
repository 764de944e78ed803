/** faithful: the reference point the real hosts are compared with. */
import { copy, passThrough, schemaOf, seenTool, type ClientProfile } from './shared.js';

export const faithful: ClientProfile = {
  id: 'faithful',
  title: 'faithful: every schema shown as published, no client-side checks (the server validates)',
  asOf: 'n/a',
  sources: ['none: the reference point the real hosts are compared with'],
  present(tools) {
    return { tools: tools.map((tool) => seenTool(tool, copy(schemaOf(tool)))) };
  },
  validate: (_tool, args) => passThrough(args),
};
