/** Every tool the server serves, in the order `tools/list` gives them. */
import type { ToolDefinition } from '../registry.js';
import { conjugateTool } from './conjugate.js';
import { lessonsTool } from './lessons.js';
import { getProfileTool, updateProfileTool } from './profile.js';

export const TOOLS: ToolDefinition[] = [conjugateTool, getProfileTool, updateProfileTool, lessonsTool];
