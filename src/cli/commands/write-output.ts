/** How `set` and `unset` show the Setting object a write left. */
import type { SettingObject } from '../../settings/setting';
import { type CliIo, printJson, printText } from '../cli-io';
import { renderPairs } from '../output/table';
import { originName, valueText } from '../output/value-text';

/** Prints the Setting object (JSON), or a readable summary with `note` on a terminal. */
export async function printWritten(
  io: CliIo,
  pluginId: string,
  object: SettingObject,
  origin: string | null,
  note: string,
  etag: string,
  secret: boolean,
): Promise<void> {
  if (io.json) {
    await printJson(io, object);
    return;
  }
  const { colours } = io;
  const where = object.scope === undefined ? '' : ` at ${object.scope}`;
  await printText(
    io,
    `${colours.green(note)}\n${renderPairs(
      [
        ['setting', `${pluginId}/${object.id}${where}`],
        ['value', colours.bold(valueText(object.value, secret))],
        ['origin', originName(origin)],
        ['etag', colours.dim(etag)],
      ],
      colours,
    )}`,
  );
}
