import type { SettingsPlan } from '../../settings/config/settings-plan';
import type { Colours } from './colour';
import { valueText } from './value-text';

/** Whether a setting of the plan's plugin is a secret (its values show as `********`). */
export type SecretTest = (id: string) => boolean;

/** `level/id`, or `id` for the global level. */
function keyText(scope: string | null, id: string): string {
  return scope === null || scope === '' ? id : `${scope}/${id}`;
}

/**
 * A plan as a diff (CONTRACT §14): a header line `plugin: <id>`, then one line per change —
 * `+ level/id new` (nothing was stored), `~ level/id old → new`, `- level/id old` (delete) — and
 * one line per error, `! level/id code: message`. The global level has no `level/` prefix;
 * secrets show as `********`.
 */
export function renderPlanDiff(plan: SettingsPlan, isSecret: SecretTest, colours: Colours): string {
  const lines = [colours.bold(`plugin: ${plan.plugin}`)];
  for (const change of plan.changes) {
    const key = keyText(change.scope, change.id);
    const secret = isSecret(change.id);
    if (change.action === 'delete') {
      lines.push(colours.red(`- ${key} ${valueText(change.old, secret)}`));
    } else if (change.old === null) {
      lines.push(colours.green(`+ ${key} ${valueText(change.new, secret)}`));
    } else {
      lines.push(
        colours.yellow(`~ ${key} ${valueText(change.old, secret)} → ${valueText(change.new, secret)}`),
      );
    }
  }
  for (const error of plan.errors) {
    lines.push(colours.red(`! ${keyText(error.scope, error.id)} ${error.code}: ${error.message}`));
  }
  return lines.join('\n');
}

/** `3 changes, 1 error` for plans together. */
export function planSummary(plans: readonly SettingsPlan[]): string {
  const changes = plans.reduce((sum, plan) => sum + plan.changes.length, 0);
  const errors = plans.reduce((sum, plan) => sum + plan.errors.length, 0);
  const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;
  return `${plural(changes, 'change')}, ${plural(errors, 'error')}`;
}
