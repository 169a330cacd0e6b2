/**
 * `cpf status`: per plugin, the block of the status report as REST builds it (schema versions,
 * secrets encrypted, unreadable and plain-text secrets, the global values masked, the plugin's
 * own members), as `[{ id, …block }]`.
 */
import { buildSystemStatus } from '../../rest/status-report';
import { printJson, printText } from '../cli-io';
import type { CommandContext } from '../command-context';
import { EXIT, type ExitCode } from '../exit-codes';
import { renderTable } from '../output/table';

/** One plugin's block, with its id. */
type PluginStatus = { readonly id: string } & Record<string, unknown>;

function listText(value: unknown): string {
  return Array.isArray(value) ? (value.length === 0 ? 'none' : value.join(', ')) : '—';
}

/** Runs `cpf status`. */
export async function status(context: CommandContext): Promise<ExitCode> {
  const { io, config } = context;
  const blocks: PluginStatus[] = [];
  for (const plugin of config.plugins) {
    const report = await buildSystemStatus([plugin], 'cpf');
    blocks.push({ id: plugin.getId(), ...(report[`cpf_${plugin.getId()}`] as Record<string, unknown>) });
  }
  if (io.json) {
    await printJson(io, blocks);
    return EXIT.ok;
  }
  const { colours } = io;
  const rows = blocks.map((block) => {
    const version = block.schema_version as { stored: number; code: number } | undefined;
    const encrypted = block.secrets_encrypted;
    return [
      block.id,
      version === undefined
        ? colours.dim('—')
        : version.stored === version.code
          ? `${version.stored}`
          : colours.yellow(`${version.stored} (code ${version.code})`),
      encrypted === undefined
        ? colours.dim('—')
        : encrypted === true
          ? colours.green('yes')
          : colours.red('no'),
      block.unreadable_secrets === undefined ? colours.dim('—') : listText(block.unreadable_secrets),
      block.plaintext_secrets === undefined ? colours.dim('—') : listText(block.plaintext_secrets),
    ];
  });
  await printText(
    io,
    renderTable(
      ['plugin', 'schema', 'secrets encrypted', 'unreadable secrets', 'plain-text secrets'],
      rows,
      colours,
    ),
  );
  return EXIT.ok;
}
