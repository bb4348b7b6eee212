import { rules } from '../../rules/index.js';
import type { Rule } from './types.js';

/** Every rule, in catalog order. */
export const allRules: readonly Rule[] = rules;

const byId = new Map(allRules.map((r) => [r.meta.id, r]));

export function getRule(id: string): Rule | undefined {
  return byId.get(id);
}
