import { choiceGroupWidget } from './choice-group';
import { MANY_CHOICES } from './choices';
import type { WidgetOfKind } from './widget-row';

/** The `checkbox-group` widget: a fieldset of checkboxes, one per option of a multi setting. */
export const CHECKBOX_GROUP_WIDGET = choiceGroupWidget<WidgetOfKind<'checkbox-group'>>(
  'checkbox',
  MANY_CHOICES,
);
