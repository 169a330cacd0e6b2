/**
 * `cpf export [plugin] [-o file]`: one plugin's settings document, or an array of every plugin's
 * (those with settings), as `exportSettingsText` streams it — the same bytes as
 * `JSON.stringify(exportSettings())` — to standard output or, with a progress line, to a file.
 */

import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Framework_Plugin } from '../../rest/plugin';
import { type OutputStream, printJson, printText, writeText } from '../cli-io';
import type { CommandContext } from '../command-context';
import { EXIT, type ExitCode } from '../exit-codes';
import { byteText, progressLine } from '../output/progress';

/** `export`'s options. */
export interface ExportCommandOptions {
  /** `-o, --output <file>`. */
  readonly output?: string;
}

/** The export's text, a chunk at a time: one document, or `[doc,doc…]` for several. */
async function* exportText(plugins: readonly Framework_Plugin[], array: boolean): AsyncGenerator<string> {
  if (array) yield '[';
  let first = true;
  for (const plugin of plugins) {
    if (!first) yield ',';
    first = false;
    yield* plugin.getSettingsHandler()!.exportSettingsText();
  }
  if (array) yield ']';
}

/** Writes the chunks to `stream`, waiting whenever it asks to (backpressure). */
async function pipeTo(
  chunks: AsyncIterable<string>,
  write: (chunk: string) => Promise<void>,
  onProgress: (bytes: number) => void,
): Promise<number> {
  let bytes = 0;
  for await (const chunk of chunks) {
    await write(chunk);
    bytes += Buffer.byteLength(chunk);
    onProgress(bytes);
  }
  return bytes;
}

/** Writes the export to `file` (through a temporary file renamed at the end: never half a file). */
async function exportToFile(
  file: string,
  chunks: AsyncIterable<string>,
  progressStream: OutputStream,
): Promise<number> {
  const temporary = `${file}.${process.pid}.tmp`;
  const out = createWriteStream(temporary);
  const progress = progressLine(progressStream);
  try {
    const bytes = await pipeTo(
      chunks,
      async (chunk) => {
        if (!out.write(chunk)) await once(out, 'drain');
      },
      (written) => progress.update(`exporting… ${byteText(written)}`),
    );
    out.end('\n');
    await once(out, 'close');
    await rename(temporary, file);
    return bytes + 1;
  } catch (error) {
    out.destroy();
    await rm(temporary, { force: true });
    throw error;
  } finally {
    progress.done();
  }
}

/** Runs `cpf export [plugin] [-o file]`. */
export async function exportCommand(
  context: CommandContext,
  pluginId: string | undefined,
  options: ExportCommandOptions,
): Promise<ExitCode> {
  const { io } = context;
  if (pluginId !== undefined) context.settings(pluginId);
  const plugins = pluginId === undefined ? context.pluginsWithSettings() : [context.plugin(pluginId)];
  const chunks = exportText(plugins, pluginId === undefined);
  if (options.output === undefined) {
    if (io.json) {
      await pipeTo(
        chunks,
        (chunk) => writeText(io.stdout, chunk),
        () => {},
      );
      await writeText(io.stdout, '\n');
    } else {
      let text = '';
      for await (const chunk of chunks) text += chunk;
      await printText(io, JSON.stringify(JSON.parse(text), null, 2));
    }
    return EXIT.ok;
  }
  const file = resolve(options.output);
  const bytes = await exportToFile(file, chunks, io.stderr);
  const ids = plugins.map((plugin) => plugin.getId());
  if (io.json) await printJson(io, { file, bytes, plugins: ids });
  else
    await printText(
      io,
      `${io.colours.green('exported')} ${ids.join(', ')} to ${options.output} (${byteText(bytes)})`,
    );
  return EXIT.ok;
}
