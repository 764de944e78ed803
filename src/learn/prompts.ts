/**
 * The prompts a learner answers (inquirer's), loaded on first use: a command
 * that asks nothing (a flag, --json, --read, a check) does not pay for
 * loading them at start.
 */
import type * as Inquirer from '@inquirer/prompts';

const inquirer = () => import('@inquirer/prompts');

export async function input(...args: Parameters<typeof Inquirer.input>): Promise<string> {
  return (await inquirer()).input(...args);
}

export async function select<Value>(...args: Parameters<typeof Inquirer.select<Value>>): Promise<Value> {
  return (await inquirer()).select<Value>(...args);
}

export async function confirm(...args: Parameters<typeof Inquirer.confirm>): Promise<boolean> {
  return (await inquirer()).confirm(...args);
}
