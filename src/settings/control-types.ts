/** The UI control types a setting can be shown with. */
export const CONTROL_TYPES = [
  'text',
  'textarea',
  'number',
  'email',
  'password',
  'date',
  'checkbox',
  'radio',
  'select',
  'file',
  'color',
  'range',
] as const;

/** One of the twelve control types: `text`, `textarea`, `number`, `email`, `password`, `date`, `checkbox`, `radio`, `select`, `file`, `color`, `range`. */
export type ControlType = (typeof CONTROL_TYPES)[number];

const controlTypeSet: ReadonlySet<string> = new Set(CONTROL_TYPES);

/** Whether `type` is one of the twelve control types. */
export function isControlType(type: unknown): type is ControlType {
  return typeof type === 'string' && controlTypeSet.has(type);
}
