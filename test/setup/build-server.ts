/**
 * Builds the baseline server once for the whole test run (cached by content,
 * like every variant the runner builds) and hands its path to the tests.
 */
import type { TestProject } from 'vitest/node';
import { buildServer } from '../../src/lab/variants.js';

export default async function setup(project: TestProject): Promise<void> {
  project.provide('serverJs', await buildServer());
}

declare module 'vitest' {
  export interface ProvidedContext {
    serverJs: string;
  }
}
