/**
 * @internal JSON text serialised ahead of time. A handler's body (or a `RestResponse`'s) of this
 * class is sent as its text, not serialised again: the settings routes keep the text of a Setting
 * object while its value stays the same.
 */
export class JsonText {
  /** @param text - valid JSON text */
  constructor(readonly text: string) {}
}
