import { choiceGroupWidget } from './choice-group';
import { ONE_CHOICE } from './choices';
import type { WidgetOfKind } from './widget-row';

/** The `radio` widget: a fieldset of radio buttons choosing one option. */
export const RADIO_WIDGET = choiceGroupWidget<WidgetOfKind<'radio'>>('radio', ONE_CHOICE);
