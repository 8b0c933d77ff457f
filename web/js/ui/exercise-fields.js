// Building blocks of an exercise's answer form: a typed-number field (format hint, a message for
// input it cannot read, feedback after a check) and a radio-group choice; plus how numbers and
// tolerances read to the learner. Used by views/exercise.js; no state of its own beyond the DOM.
import { h, uniqueId } from './dom.js';
import { parseAnswer, unitKind, judge, describeTolerance, acceptedUnits, usesDecimalComma } from '../lib/answer-parse.js';
import { plainNumber, plainPercent, countWords, scaleWords } from '../lib/plain-number.js';
import { quoteValue } from '../state.js';
import { withoutIsolates } from '../lib/bidi.js';

/**
 * A number with `digits` significant digits, trailing zeros dropped, never in e-notation, as
 * language `lang` writes it: 0.19323 -> "0.1932" (Spanish "0,1932"). What the page shows in an
 * exercise reads back through the answer field in the same language (lib/answer-parse.js).
 */
export function sig(value, digits = 4, lang = undefined) {
  return plainNumber(value, digits, lang);
}

/** A value of an answer's kind as the learner would write it: "0.1932 (19.32%)", "17.64 GB", "8.819 billion" (in the language of `t`). */
export function formatQuantity(value, kind, t) {
  const lang = t.lang;
  if (kind === 'fraction') return `${sig(value, 4, lang)} (${plainPercent(value, 4, lang)})`;
  if (kind === 'params') return countWords(value, t, 4);
  if (kind === 'bytes') return Math.abs(value) >= 1e6 ? `${sig(value / 1e9, 4, lang)} GB` : `${sig(value, 4, lang)} B`;
  if (kind === 'gpuHours') return t('ex.unit.gpuHours', { v: sig(value, 4, lang) });
  return sig(value, 6, lang);
}

/**
 * The unit words formatQuantity writes for `kind` in the language of `t` (lower case -> factor),
 * for reading them back: GPU-hours' "horas-GPU" in Spanish.
 */
export function ownUnits(kind, t) {
  if (kind !== 'gpuHours') return {};
  // Without the isolates a right-to-left template keeps around its Latin ("GPU"): the parser drops them.
  const word = withoutIsolates(t('ex.unit.gpuHours', { v: '' })).trim().toLowerCase();
  return word && word !== 'ex.unit.gpuhours' ? { [word]: 1 } : {};
}

/** "within ±1%", "within ±0.005", "exactly" in the learner's language. */
export function toleranceText(tolerance, kind, t) {
  const tol = describeTolerance(tolerance);
  if (tol.kind === 'relative') return t('ex.tol.relative', { v: sig(tol.amount * 100, 4, t.lang) });
  if (tol.kind === 'absolute') return t('ex.tol.absolute', { v: kind === 'fraction' ? sig(tol.amount, 4, t.lang) : formatQuantity(tol.amount, kind, t) });
  return t('ex.tol.exact');
}

/** The message for input parseAnswer() could not read. */
export function parseMessage(parsed, text, kind, t) {
  if (parsed.reason === 'decimalComma') return t('ex.parse.decimalComma');
  if (parsed.reason === 'unit') {
    const units = acceptedUnits(kind);
    return units.length ? t('ex.parse.unit', { unit: quoteValue(parsed.unit), units: t.list(units.slice(0, 6)) }) : t('ex.parse.noUnit', { unit: quoteValue(parsed.unit) });
  }
  return t('ex.parse.syntax', { text: quoteValue(String(text).trim()), examples: t(`ex.format.${kind}`) });
}

/** What a wrong number says: too high or too low, nothing the answer could be worked out from. */
export function wrongMessage(verdict, t) {
  return t(verdict.direction === 'high' ? 'ex.wrong.high' : 'ex.wrong.low');
}

/**
 * A number answer: label, text input, format hint with tolerance, message, feedback. Returns
 * {element, input, read(), check(expected) -> 'empty'|'invalid'|'correct'|'wrong', clearStatus()}.
 */
export function numberField(answer, { t, lang }) {
  const id = uniqueId('dpl-ans');
  const kind = unitKind(answer.unit);
  const input = h('input', {
    type: 'text', id, name: answer.id, autocomplete: 'off', spellcheck: 'false', inputmode: 'text',
    'aria-describedby': `${id}-hint ${id}-msg ${id}-fb`, dataset: { answer: answer.id, kind },
  });
  const hint = h('p', { class: 'dpl-field-hint', id: `${id}-hint` });
  const message = h('p', { class: 'dpl-field-msg', id: `${id}-msg`, 'aria-live': 'polite' });
  const feedback = h('p', { class: 'dpl-ex-feedback', id: `${id}-fb`, 'aria-live': 'polite' });
  const element = h('div', { class: 'dpl-field dpl-ex-field', dataset: { answer: answer.id } }, [
    h('label', { for: id, text: answer.label || answer.id }),
    input, hint, message, feedback,
  ]);

  const setStatus = (status, text) => {
    element.dataset.status = status;
    feedback.replaceChildren();
    if (text) feedback.append(h('span', { class: 'dpl-ex-mark', 'aria-hidden': 'true', text: status === 'correct' ? '✓' : '✗' }), ' ', text);
  };
  const clearStatus = () => {
    delete element.dataset.status;
    feedback.replaceChildren();
    message.textContent = '';
    input.removeAttribute('aria-invalid');
  };
  input.addEventListener('input', () => {
    if (input.getAttribute('aria-invalid')) { message.textContent = ''; input.removeAttribute('aria-invalid'); }
  });

  return {
    element,
    input,
    kind,
    setHint(tolerance) {
      hint.textContent = `${t(`ex.format.${kind}`)} · ${toleranceText(tolerance, kind, t)}`;
    },
    read: () => input.value,
    write(text) { input.value = text ?? ''; },
    clearStatus,
    /** Checks against expected {kind:'number', value}; shows the outcome next to the field. */
    check(expected, tolerance) {
      clearStatus();
      const text = input.value;
      const parsed = parseAnswer(text, kind, { decimalComma: usesDecimalComma(t.lang), scales: scaleWords(t), units: ownUnits(kind, t) });
      if (!parsed.ok && parsed.reason === 'empty') {
        element.dataset.status = 'empty';
        feedback.textContent = t('ex.notAnswered');
        return 'empty';
      }
      if (!parsed.ok) {
        message.textContent = parseMessage(parsed, text, kind, t);
        input.setAttribute('aria-invalid', 'true');
        element.dataset.status = 'invalid';
        return 'invalid';
      }
      const verdict = judge(parsed.value, expected.value, tolerance);
      if (verdict.correct) {
        setStatus('correct', t('ex.correct', { v: formatQuantity(expected.value, kind, t) }));
        return 'correct';
      }
      setStatus('wrong', wrongMessage(verdict, t));
      return 'wrong';
    },
  };
}

/**
 * A choice answer: a fieldset of radios (arrow keys move between options, as native radio groups
 * do). Returns {element, read() -> index|null, write(index), check(expected), clearStatus()}.
 */
export function choiceField(answer, { t, lang }) {
  const name = uniqueId('dpl-choice');
  const feedback = h('p', { class: 'dpl-ex-feedback', 'aria-live': 'polite' });
  const evidence = h('p', { class: 'dpl-ex-evidence' });
  const radios = answer.choices.map((choice, index) => h('input', { type: 'radio', name, value: String(index), dataset: { answer: answer.id } }));
  const options = answer.choices.map((choice, index) => h('label', { class: 'dpl-ex-option', dataset: { index } }, [
    radios[index], h('span', { text: choice }),
  ]));
  const element = h('fieldset', { class: 'dpl-ex-choice', dataset: { answer: answer.id } }, [
    h('legend', { text: answer.label || answer.id }),
    h('div', { class: 'dpl-ex-options' }, options),
    feedback, evidence,
  ]);
  const clearStatus = () => {
    delete element.dataset.status;
    feedback.replaceChildren();
    evidence.textContent = '';
    options.forEach((o) => { delete o.dataset.state; });
  };
  return {
    element,
    read() {
      const picked = radios.findIndex((r) => r.checked);
      return picked < 0 ? null : picked;
    },
    write(index) { radios.forEach((r, i) => { r.checked = i === Number(index); }); },
    clearStatus,
    check(expected, _tolerance, evidenceText = '') {
      clearStatus();
      const picked = this.read();
      if (picked === null) {
        element.dataset.status = 'empty';
        feedback.textContent = t('ex.notAnswered');
        return 'empty';
      }
      const correct = picked === expected.correct;
      element.dataset.status = correct ? 'correct' : 'wrong';
      options[picked].dataset.state = correct ? 'correct' : 'wrong';
      feedback.append(h('span', { class: 'dpl-ex-mark', 'aria-hidden': 'true', text: correct ? '✓' : '✗' }), ' ',
        correct ? t('ex.choiceCorrect') : t('ex.choiceWrong'));
      // What the simulation shows confirms a right answer; after a wrong one it would give it away.
      evidence.textContent = correct ? evidenceText : '';
      return correct ? 'correct' : 'wrong';
    },
  };
}
