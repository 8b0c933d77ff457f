// One stage of the lesson's quiz (lessons/quiz.json, the course's schema): the pre question before
// the lesson, the three checks after the concept section, the two post questions at the end.
// Each question is a native radio group (arrow keys move between options) with a Check button
// (Enter on an option checks too); feedback is immediate, says right or wrong in words and with
// a ✓/✗, marks the right option, and shows the explanation. As on the course's site, an answered
// question is locked; "Reset progress" clears it.
// mount(element, deps) -> { update(state), destroy() }
//   deps.t  deps.stage ('pre'|'check'|'post')  deps.questions [{qid, question, options, correct, explanation}]
//   deps.onAnswer(qid, picked, correct)
// state: { answers: {qid: {picked, correct}} }   what the learner answered before (progress)
import { h, uniqueId } from '../ui/dom.js';

export function mount(element, deps) {
  const { t, stage, questions } = deps;
  const prefix = uniqueId('dpl-quiz');
  const headingId = `${prefix}-h`;
  const score = h('p', { class: 'dpl-quiz-score', 'aria-live': 'polite' });
  const items = questions.map((q, index) => {
    const name = `${prefix}-${q.qid}`;
    const radios = q.options.map((_, i) => h('input', { type: 'radio', name, value: String(i) }));
    const marks = q.options.map(() => h('span', { class: 'dpl-quiz-mark', 'aria-hidden': 'true' }));
    const options = q.options.map((option, i) => h('label', { class: 'dpl-quiz-option', dataset: { index: i } }, [
      radios[i], marks[i], h('span', { class: 'dpl-quiz-text', text: option }),
    ]));
    const button = h('button', { type: 'button', class: 'dpl-btn', dataset: { action: 'quiz-check' } }, [t('quiz.check')]);
    const message = h('p', { class: 'dpl-field-msg', 'aria-live': 'polite' });
    const feedback = h('div', { class: 'dpl-quiz-feedback', 'aria-live': 'polite' });
    const fieldset = h('fieldset', { class: 'dpl-quiz-q', id: `quiz-${q.qid}`, dataset: { qid: q.qid } }, [
      h('legend', { text: `${index + 1}. ${q.question}` }),
      h('div', { class: 'dpl-quiz-options' }, options),
      h('div', { class: 'dpl-quiz-actions' }, [button, message]),
      feedback,
    ]);
    return { q, radios, marks, options, button, message, feedback, fieldset };
  });
  const root = h('section', { class: 'dpl dpl-quiz', dataset: { stage }, 'aria-labelledby': headingId }, [
    h('h2', { id: headingId, class: 'dpl-quiz-title', text: t(`quiz.title.${stage}`) }),
    h('p', { class: 'dpl-quiz-intro', text: t(`quiz.intro.${stage}`, { n: questions.length }) }),
    ...items.map((item) => item.fieldset),
    score,
  ]);
  element.append(root);

  function show(item, picked) {
    const correct = picked === item.q.correct;
    item.fieldset.dataset.answered = correct ? 'correct' : 'wrong';
    item.radios.forEach((r, i) => { r.checked = i === picked; r.disabled = true; });
    item.button.disabled = true;
    item.button.hidden = true;
    item.message.textContent = '';
    item.options.forEach((o, i) => {
      const state = i === item.q.correct ? 'correct' : i === picked ? 'wrong' : '';
      if (state) o.dataset.state = state; else delete o.dataset.state;
      item.marks[i].textContent = state === 'correct' ? '✓' : state === 'wrong' ? '✗' : '';
    });
    item.feedback.replaceChildren(
      h('p', { class: correct ? 'is-correct' : 'is-wrong' }, [
        h('strong', { text: correct ? t('quiz.correct') : t('quiz.wrong', { answer: item.q.options[item.q.correct] }) }),
      ]),
      h('p', { class: 'dpl-quiz-explanation', text: item.q.explanation }),
    );
    updateScore();
  }

  function reset(item) {
    delete item.fieldset.dataset.answered;
    item.radios.forEach((r) => { r.checked = false; r.disabled = false; });
    item.button.disabled = false;
    item.button.hidden = false;
    item.options.forEach((o) => { delete o.dataset.state; });
    item.marks.forEach((m) => { m.textContent = ''; });
    item.feedback.replaceChildren();
    item.message.textContent = '';
  }

  function updateScore() {
    const answered = items.filter((i) => i.fieldset.dataset.answered);
    if (answered.length < items.length) { score.textContent = ''; return; }
    const right = answered.filter((i) => i.fieldset.dataset.answered === 'correct').length;
    score.textContent = t('quiz.score', { right, total: items.length });
  }

  function answer(item) {
    if (item.fieldset.dataset.answered) return;
    const picked = item.radios.findIndex((r) => r.checked);
    if (picked < 0) {
      item.message.textContent = t('quiz.pickFirst');
      return;
    }
    show(item, picked);
    deps.onAnswer?.(item.q.qid, picked, picked === item.q.correct);
  }

  for (const item of items) {
    item.button.addEventListener('click', () => answer(item));
    item.fieldset.addEventListener('keydown', (event) => {
      if (event.key === 'Enter' && event.target.type === 'radio') {
        event.preventDefault();
        answer(item);
      }
    });
    item.fieldset.addEventListener('change', () => { item.message.textContent = ''; });
  }

  return {
    update(state) {
      const answers = state?.answers || {};
      for (const item of items) {
        const saved = answers[item.q.qid];
        const valid = saved && Number.isInteger(saved.picked) && saved.picked >= 0 && saved.picked < item.q.options.length;
        if (valid) {
          if (item.fieldset.dataset.answered === undefined || !item.radios[saved.picked].checked) show(item, saved.picked);
        } else if (item.fieldset.dataset.answered) {
          reset(item);
        }
      }
      updateScore();
    },
    destroy() {
      root.remove();
    },
  };
}
