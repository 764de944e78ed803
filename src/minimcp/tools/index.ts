/** Every tool the server serves, in the order `tools/list` gives them. */
import type { ToolDefinition } from '../registry.js';
import { conjugateTool } from './conjugate.js';

export const TOOLS: ToolDefinition[] = [conjugateTool];
