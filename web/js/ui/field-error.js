// A field's error as a learner reads it: the plain sentence from lib/error-fix.js and, when the
// rule has a safe repair, a button beside it that applies it ("DualPipe needs an even number of
// ranks — use 8"). Shared by every form (explorer settings, costs, lesson widgets, sweep,
// planner), so a fix looks and works the same everywhere.
import { h } from './dom.js';
import { explainError } from '../lib/error-fix.js';

/**
 * Fills the message element `msg` of `control` for `error` (or clears both when null). `config`
 * is what the error is about ({schedule, ranks, microbatches, costs}); `onFix(patch)` applies a
 * repair. Returns the explanation ({text, fix, fixLabel}).
 */
export function showFieldError(msg, control, error, { config, t, onFix, explained } = {}) {
  const info = explained ?? explainError(error, config, t);
  if (!error) {
    msg.replaceChildren();
    control?.removeAttribute('aria-invalid');
    return info;
  }
  control?.setAttribute('aria-invalid', 'true');
  msg.replaceChildren(h('span', { class: 'dpl-field-msg-text', text: info.text }));
  if (info.fix && onFix) {
    msg.append(' — ', h('button', {
      type: 'button', class: 'dpl-fix', dataset: { field: info.fix.field, value: info.fix.value },
      'aria-label': t('fix.button', { value: String(info.fix.value), field: info.fix.field === 'ranks' || info.fix.field === 'microbatches' ? t(`form.${info.fix.field}`) : t(`pf.${info.fix.field}`) }),
      onclick: () => onFix(info.fix.patch, info.fix),
    }, [info.fixLabel]));
  }
  return info;
}
