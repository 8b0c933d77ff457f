// A field's error as a learner reads it: the plain sentence from lib/error-fix.js and, when the
// rule has a safe repair, a button beside it that applies it ("DualPipe needs an even number of
// ranks — use 8"). Shared by every form (explorer settings, costs, lesson widgets, sweep,
// planner), so a fix looks and works the same everywhere. lib/error-fix.js loads with the first
// error: a page nobody gets wrong never downloads it.
import { h } from './dom.js';
import { formatNumber } from '../lib/format.js';

let errorFix = null; // lib/error-fix.js, once loaded
/** lib/error-fix.js's explainError(error, config, t), loading the module on first use. */
export async function explain(error, config, t) {
  errorFix ??= await import('../lib/error-fix.js');
  return errorFix.explainError(error, config, t);
}

/**
 * `t` that names some fields its own way: `names` maps a field's i18n key (`pf.<field>`) to the
 * label a form shows for it (a calculator's inputs have no `pf.` string of their own).
 */
export function withFieldNames(t, names) {
  const named = (key, params) => names[key] ?? t(key, params);
  named.lang = t.lang;
  return named;
}

const showing = new WeakMap(); // msg -> the error it should show: a late explanation fills only that

/**
 * Fills the message element `msg` of `control` for `error` (or clears both when null). `config`
 * is what the error is about ({schedule, ranks, microbatches, costs}); `onFix(patch)` applies a
 * repair; `explained` an explanation ({text, fix, fixLabel}) the caller already has.
 */
export function showFieldError(msg, control, error, { config, t, onFix, explained } = {}) {
  showing.set(msg, error);
  if (!error) {
    msg.replaceChildren();
    control?.removeAttribute('aria-invalid');
    return;
  }
  control?.setAttribute('aria-invalid', 'true');
  if (explained) fill(msg, explained, t, onFix);
  else explain(error, config, t).then((info) => { if (showing.get(msg) === error) fill(msg, info, t, onFix); });
}

function fill(msg, info, t, onFix) {
  msg.replaceChildren(h('span', { class: 'dpl-field-msg-text', text: info.text }));
  if (info.fix && onFix) {
    msg.append(' — ', h('button', {
      type: 'button', class: 'dpl-fix', dataset: { field: info.fix.field, value: info.fix.value },
      'aria-label': t('fix.button', { value: formatNumber(info.fix.value, 6, t.lang), field: info.fix.field === 'ranks' || info.fix.field === 'microbatches' ? t(`form.${info.fix.field}`) : t(`pf.${info.fix.field}`) }),
      onclick: () => onFix(info.fix.patch, info.fix),
    }, [info.fixLabel]));
  }
}
