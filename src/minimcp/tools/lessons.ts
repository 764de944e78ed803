/**
 * The lessons tool: one tool, four actions. `list` and `get` read; `create`
 * and `delete` change the tutor's data. In read-only mode (readonly.ts) the
 * classifier finds the mutating actions among the options of `action` and
 * refuses them.
 */
import { z } from 'zod';
import { InvalidArgumentsError } from '../errors.js';
import { defineTool } from '../registry.js';
import { LEVELS } from './profile.js';

export const LESSON_ACTIONS = ['list', 'get', 'create', 'delete'] as const;

interface Lesson {
  id: string;
  title: string;
  level: (typeof LEVELS)[number];
}

const lessons = new Map<string, Lesson>(
  [
    { id: 'L1', title: 'Present simple', level: 'A1' },
    { id: 'L2', title: 'To be: am, is, are', level: 'A1' },
    { id: 'L3', title: 'Past simple: regular verbs', level: 'A2' },
    { id: 'L4', title: 'Irregular past forms', level: 'A2' },
    { id: 'L5', title: 'Present perfect', level: 'B1' },
    { id: 'L6', title: 'Past continuous', level: 'B1' },
    { id: 'L7', title: 'Future perfect', level: 'B2' },
    { id: 'L8', title: 'Perfect continuous tenses', level: 'C1' },
  ].map((l) => [l.id, l as Lesson]),
);
let nextId = lessons.size + 1;

// Every parameter is required, with "" or "any" where an action does not use
// it: strict hosts (OpenAI) need every property in `required`, and Gemini's
// legacy field refuses the nullable unions that optional-but-strict would need.
export const LessonsArgs = z.strictObject({
  action: z.enum(LESSON_ACTIONS).describe('list, get, create or delete.'),
  level: z.enum([...LEVELS, 'any']).describe('list: only lessons of this level ("any" for all); create: the new lesson\'s level.'),
  lessonId: z.string().describe('get and delete: the lesson, e.g. "L3"; "" otherwise.'),
  title: z.string().describe('create: the new lesson\'s title; "" otherwise.'),
});

function lesson(id: string): Lesson {
  const found = lessons.get(id);
  if (!found) throw new InvalidArgumentsError([{ parameter: 'lessonId', problem: `no lesson ${JSON.stringify(id)}; lessons are ${[...lessons.keys()].join(', ')}` }]);
  return found;
}

export const lessonsTool = defineTool({
  name: 'lessons',
  title: 'Lessons',
  description: 'Lists, reads, creates or deletes the tutor\'s grammar lessons. Give the action, and the level, lessonId or title it needs.',
  inputSchema: LessonsArgs,
  execute(args: { action: (typeof LESSON_ACTIONS)[number]; level: string; lessonId: string; title: string }) {
    switch (args.action) {
      case 'list':
        return [...lessons.values()]
          .filter((l) => args.level === 'any' || l.level === args.level)
          .map((l) => `${l.id} ${l.title} (${l.level})`)
          .join('\n');
      case 'get':
        return JSON.stringify(lesson(args.lessonId));
      case 'create': {
        if (args.level === 'any') throw new InvalidArgumentsError([{ parameter: 'level', problem: 'a new lesson needs a level, not "any"' }]);
        const created = { id: `L${nextId++}`, title: args.title, level: args.level as Lesson['level'] };
        lessons.set(created.id, created);
        return `Created lesson ${created.id}: ${created.title} (${created.level})`;
      }
      case 'delete':
        lesson(args.lessonId);
        lessons.delete(args.lessonId);
        return `Deleted lesson ${args.lessonId}`;
    }
  },
});
