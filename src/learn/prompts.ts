/**
 * The prompts a learner answers (inquirer's), loaded on first use: a command
 * that asks nothing (a flag, --json, --read, a check) does not pay for
 * loading them at start. The three prompt packages the kit asks with, not
 * @inquirer/prompts, which would bring seven more (and their downloads) into
 * the learner install.
 */
import type Confirm from '@inquirer/confirm';
import type Input from '@inquirer/input';
import type Select from '@inquirer/select';

export async function input(...args: Parameters<typeof Input>): Promise<string> {
  return (await import('@inquirer/input')).default(...args);
}

export async function select<Value>(...args: Parameters<typeof Select<Value>>): Promise<Value> {
  return (await import('@inquirer/select')).default<Value>(...args);
}

export async function confirm(...args: Parameters<typeof Confirm>): Promise<boolean> {
  return (await import('@inquirer/confirm')).default(...args);
}
